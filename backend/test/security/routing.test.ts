// Requests the API must read the way its router does: encoded paths, malformed multipart, batches over
// the limit, and every body encoding the restore endpoint documents.
import type { InjectOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedIn } from '../helpers/auth.js';
import {
  batchUpload,
  listFiles,
  startFilesApp,
  storedContents,
  upload,
  type FilesHarness,
} from '../files/files-harness.js';

let h: FilesHarness;
let alice: SignedIn;
let png: Buffer;

beforeAll(async () => {
  h = await startFilesApp();
  alice = await h.signIn('alice@example.test');
  png = await sharp({ create: { width: 24, height: 24, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await h.close();
});

const inject = (options: InjectOptions) => h.test.app.inject(options);

describe('auth on the normalised path', () => {
  it('needs a token on /%61pi/... as on /api/...: 401 without, the same answer with one', async () => {
    const anonymous = await inject({ method: 'GET', url: '/%61pi/v1/users/me' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ detail: 'Not authenticated' });
    const signedIn = await inject({ method: 'GET', url: '/%61pi/v1/users/me', headers: alice.headers });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json<{ id: string }>().id).toBe(alice.userId);
    const files = await inject({ method: 'GET', url: '/api/v1/%66iles/all' });
    expect(files.statusCode).toBe(401);
  });
});

describe('malformed multipart', () => {
  it('answers 400 to multipart without a boundary on every multipart route', async () => {
    for (const url of ['/api/v1/files/upload', '/api/v1/files/batch-upload', '/api/v1/restoration/restore']) {
      const response = await inject({
        method: 'POST',
        url,
        headers: { ...alice.headers, 'content-type': 'multipart/form-data' },
        payload: 'file_id=x',
      });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 400 });
      expect(response.json()).toEqual({ detail: 'Malformed multipart/form-data body: no boundary' });
    }
  });

  it('answers 400 to a multipart body that breaks off, and keeps nothing', async () => {
    const boundary = 'folio-cut';
    const cut = (field: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\n` +
      'Content-Type: image/png\r\n\r\n' +
      png.toString('latin1');
    for (const [url, field] of [
      ['/api/v1/files/upload', 'file'],
      ['/api/v1/files/batch-upload', 'files'],
    ] as const) {
      const response = await fetch(`${h.base}${url}`, {
        method: 'POST',
        headers: { ...alice.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: Buffer.from(cut(field), 'latin1'),
      });
      expect({ url, status: response.status }).toEqual({ url, status: 400 });
      expect(await response.json()).toEqual({ detail: 'Malformed multipart/form-data body' });
    }
    expect(await listFiles(h, alice)).toEqual([]);
  });
});

describe('batch upload over the limit', () => {
  it('refuses a batch of 51 files whole with 413: no file is kept', async () => {
    const bob = await h.signIn('bob@example.test');
    const before = (await storedContents(h)).length;
    const files = Array.from({ length: 51 }, (_, i) => ({ name: `page-${i}.png`, bytes: png }));
    let status: number;
    let detail: string | undefined;
    try {
      const response = await batchUpload(h, bob, files);
      status = response.status;
      detail = ((await response.json()) as { detail: string }).detail;
    } catch {
      // The server may close the connection before the client finished sending: refused all the same.
      status = 413;
    }
    expect(status).toBe(413);
    if (detail !== undefined) {
      expect(detail).toBe('Too many files: at most 50 in one upload. None of them were kept.');
    }
    expect(await listFiles(h, bob)).toEqual([]);
    expect((await storedContents(h)).length).toBe(before);
  });

  it('still takes a batch of exactly 50', async () => {
    const carol = await h.signIn('carol@example.test');
    const files = Array.from({ length: 50 }, (_, i) => ({ name: `page-${i}.png`, bytes: png }));
    const response = await batchUpload(h, carol, files);
    expect(response.status).toBe(200);
    expect((await listFiles(h, carol)).length).toBe(50);
  });
});

describe('restore body encodings', () => {
  it('reads file_id from a urlencoded form, like multipart and JSON', async () => {
    const unknown = randomUUID();
    const bodies = [
      { 'content-type': 'application/x-www-form-urlencoded', payload: `file_id=${unknown}&filename=a.png` },
      { 'content-type': 'application/json', payload: JSON.stringify({ file_id: unknown }) },
      {
        'content-type': 'multipart/form-data; boundary=b',
        payload: `--b\r\nContent-Disposition: form-data; name="file_id"\r\n\r\n${unknown}\r\n--b--\r\n`,
      },
    ];
    for (const body of bodies) {
      const response = await inject({
        method: 'POST',
        url: '/api/v1/restoration/restore',
        headers: { ...alice.headers, 'content-type': body['content-type'] },
        payload: body.payload,
      });
      // The field was read: the unknown file is a 404 (a body not understood would be 415 or 422).
      expect({ type: body['content-type'], status: response.statusCode }).toEqual({
        type: body['content-type'],
        status: 404,
      });
    }
    const empty = await inject({
      method: 'POST',
      url: '/api/v1/restoration/restore',
      headers: { ...alice.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'filename=a.png',
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({ detail: 'file_id is required' });
  });
});

describe('slow and oversized requests', () => {
  it('answers 413 to a JSON body over JSON_BODY_LIMIT_KB', async () => {
    const ids = Array.from({ length: 9000 }, () => randomUUID());
    const response = await inject({
      method: 'POST',
      url: '/api/v1/files/download',
      headers: alice.headers,
      payload: { file_ids: ids },
    });
    expect(response.statusCode).toBe(413);
  });

  it('single upload still works over real HTTP', async () => {
    expect((await upload(h, alice, { name: 'ok.png', bytes: png })).status).toBe(200);
  });
});
