import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, setApiForTests } from '../../../api/client.js';
import { json, startApi } from '../../../test/helpers.js';
import { startRestoration } from './files-api.js';

describe('startRestoration', () => {
  afterEach(() => setApiForTests(undefined));

  it('posts file_id and filename as multipart/form-data through the generated client', async () => {
    const api = await startApi((_req, res) =>
      json(res, 200, { data: { job_id: 'j1' }, credits_remaining: 7 }),
    );
    try {
      setApiForTests(createApiClient({ baseUrl: api.url }));
      const answer = await startRestoration('f1', 'scan.png');
      expect(answer).toEqual({ data: { job_id: 'j1' }, credits_remaining: 7 });
      const [request] = api.requests;
      expect(request?.method).toBe('POST');
      expect(request?.path).toBe('/api/v1/restoration/restore');
      expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(request?.body).toMatch(/name="file_id"\r\n\r\nf1\r\n/);
      expect(request?.body).toMatch(/name="filename"\r\n\r\nscan\.png\r\n/);
    } finally {
      await api.close();
    }
  });
});
