import { parseRealtimeMessage } from './realtime.js';
import { dto } from './fixtures.test-util.js';

describe('parseRealtimeMessage', () => {
  const logged: unknown[] = [];
  const log = (msg: string) => {
    logged.push(msg);
  };
  beforeEach(() => {
    logged.length = 0;
  });

  it('parses a known event', () => {
    const event = { type: 'file.upload.completed', file: dto({ id: 'a' }) };
    expect(parseRealtimeMessage(JSON.stringify(event), log)).toEqual(event);
    expect(logged).toEqual([]);
  });

  it('logs and ignores unparseable, untyped, unknown and malformed messages', () => {
    expect(parseRealtimeMessage('{not json', log)).toBeNull();
    expect(parseRealtimeMessage('[1,2]', log)).toBeNull();
    expect(parseRealtimeMessage('{"type":"weather.report"}', log)).toBeNull();
    expect(parseRealtimeMessage('{"type":"file.upload.completed"}', log)).toBeNull();
    expect(parseRealtimeMessage('{"type":"restoration.progress","currentPage":1}', log)).toBeNull();
    expect(logged).toHaveLength(5);
  });

  it('accepts page/total as progress field names', () => {
    const event = parseRealtimeMessage(
      JSON.stringify({ type: 'restoration.progress', original_file_id: 'o', page: 2, total: 5 }),
      log,
    );
    expect(event).toMatchObject({ currentPage: 2, totalPages: 5 });
  });
});
