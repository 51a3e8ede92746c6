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

  it('parses a progress event with the fields the server sends', () => {
    const event = {
      type: 'restoration.progress',
      original_file_id: 'o',
      fileId: 'o',
      jobId: 'j',
      currentPage: 2,
      totalPages: 5,
      successfulPages: 2,
      failedPages: 0,
      credits_remaining: 8,
    };
    expect(parseRealtimeMessage(JSON.stringify(event), log)).toEqual(event);
    expect(logged).toEqual([]);
  });

  it('ignores a progress message without currentPage (page/total are not names the server sends)', () => {
    expect(
      parseRealtimeMessage(
        JSON.stringify({ type: 'restoration.progress', original_file_id: 'o', page: 2, total: 5 }),
        log,
      ),
    ).toBeNull();
    expect(logged).toHaveLength(1);
  });
});
