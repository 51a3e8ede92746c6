import type { FileDto } from '../../src/files/file.schemas.js';
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRepository } from '../../src/files/file-repository.js';
import { badFiles, evalFile, HOSTILE_NAMES, multiPageTiff, webpOf } from '../fixtures/bad-files.js';
import type { SignedIn } from '../helpers/auth.js';
import {
  batchUpload,
  listFiles,
  startFilesApp,
  storedContents,
  storedKeys,
  upload,
  waitForPreview,
  type FilesHarness,
} from './files-harness.js';

const PDF = { name: 'Contract – Résumé.pdf', bytes: evalFile('pdf_003/degraded.pdf') };
const JPEG = { name: 'photo.JPG', bytes: evalFile('photo_001/degraded.jpg') };
const PNG = { name: 'page.png', bytes: evalFile('doc_001/degraded.png') };

let h: FilesHarness;
let alice: SignedIn & { events: RealtimeEvent[] };
let bob: SignedIn;

beforeAll(async () => {
  h = await startFilesApp();
  alice = await h.signIn('alice@example.test');
  bob = await h.signIn('bob@example.test');
});

afterAll(async () => {
  await h.close();
});

async function uploadOk(who: SignedIn, file: { name: string; bytes: Buffer }): Promise<FileDto> {
  const response = await upload(h, who, file);
  const body = (await response.json()) as { file_id: string; job_id: string; file: FileDto; detail?: string };
  expect(response.status, body.detail).toBe(200);
  expect(body.file_id).toBe(body.file.id);
  expect(body.job_id).toMatch(/^[0-9a-f-]{36}$/);
  return body.file;
}

describe('upload', () => {
  it('keeps a 5-page PDF with its page count, credit cost, size and retention', async () => {
    const file = await uploadOk(alice, PDF);
    expect(file).toMatchObject({
      filename: 'Contract – Résumé.pdf',
      name: 'Contract – Résumé.pdf',
      file_type: 'pdf',
      size_bytes: PDF.bytes.length,
      status: 'uploaded',
      type: 'original',
      page_count: 5,
      credit_cost: 5,
      days_remaining: 7,
      preview_available: false,
      original_file_id: null,
    });
    const listed = (await listFiles(h, alice)).find((item) => item.id === file.id);
    expect(listed).toMatchObject({ page_count: 5, credit_cost: 5, size_bytes: PDF.bytes.length });
    const announced = alice.events.find((event) => event.type === 'file.upload.completed');
    expect(announced).toEqual({ type: 'file.upload.completed', file });
  });

  it('keeps JPEG and PNG images as one page each', async () => {
    const jpeg = await uploadOk(alice, JPEG);
    const png = await uploadOk(alice, PNG);
    expect(jpeg).toMatchObject({ file_type: 'jpg', filename: 'photo.JPG', page_count: 1, credit_cost: 1 });
    expect(png).toMatchObject({ file_type: 'png', page_count: 1, credit_cost: 1 });
  });

  it('keeps a multi-page TIFF with one credit per page, and a WEBP', async () => {
    const tiff = await uploadOk(alice, { name: 'fax.tiff', bytes: await multiPageTiff(3) });
    expect(tiff).toMatchObject({ filename: 'fax.tiff', file_type: 'tiff', page_count: 3, credit_cost: 3 });
    const webp = await uploadOk(alice, { name: 'photo', bytes: await webpOf('photo_001/degraded.jpg') });
    expect(webp).toMatchObject({ filename: 'photo.webp', file_type: 'webp', page_count: 1, credit_cost: 1 });
    const response = await fetch(`${h.base}/api/v1/files/download/id/${tiff.id}/fax.tiff`, {
      headers: alice.headers,
    });
    expect(response.headers.get('content-type')).toBe('image/tiff');
    expect(Buffer.from(await response.arrayBuffer()).length).toBe(tiff.size_bytes);
  });

  it('lets the content decide the type: PNG bytes named .pdf are kept as a PNG', async () => {
    const file = await uploadOk(alice, { name: 'scan.pdf', bytes: PNG.bytes });
    expect(file).toMatchObject({ filename: 'scan.png', file_type: 'png', page_count: 1 });
    const response = await fetch(`${h.base}/api/v1/files/download/id/${file.id}/scan.png`, {
      headers: alice.headers,
    });
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG.bytes)).toBe(true);
  });

  it('lists newest first with every field of FileDto (originals marked with has_restored)', async () => {
    const files = await listFiles(h, alice);
    expect(files[0]?.type).toBe('original');
    const created = files.map((file) => file.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(Object.keys(files[0] ?? {}).sort()).toEqual(
      [
        'created_at',
        'credit_cost',
        'days_remaining',
        'file_type',
        'filename',
        'has_restored',
        'id',
        'job_id',
        'name',
        'original_file_id',
        'original_filename',
        'page_count',
        'preview_available',
        'size_bytes',
        'status',
        'type',
        'updated_at',
      ].sort(),
    );
  });

  it('sanitises hostile names; storage keys never come from them', async () => {
    for (const { filename, expected } of HOSTILE_NAMES) {
      const file = await uploadOk(bob, { name: filename, bytes: PNG.bytes });
      expect(file.filename).toBe(expected);
    }
    for (const key of await storedKeys(h))
      expect(key).toMatch(/^objects\/[0-9a-f-]{36}\/(content|preview\.webp)$/);
  });

  it('answers 415 to an upload that is not multipart', async () => {
    for (const url of ['/api/v1/files/upload', '/api/v1/files/batch-upload']) {
      const response = await h.test.app.inject({
        method: 'POST',
        url,
        headers: alice.headers,
        payload: { file: 'x' },
      });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({ detail: 'Expected a multipart/form-data upload' });
    }
  });

  it('answers 401 without a session', async () => {
    const form = new FormData();
    form.append('file', new Blob([PNG.bytes]), 'a.png');
    const response = await fetch(`${h.base}/api/v1/files/upload`, { method: 'POST', body: form });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: 'Not authenticated' });
  });
});

describe('refused uploads leave nothing behind', () => {
  let carol: SignedIn;
  beforeAll(async () => {
    carol = await h.signIn('carol@example.test');
  });

  it('refuses every file of the bad-file corpus with its status and a clear detail', async () => {
    const before = await storedContents(h);
    for (const bad of await badFiles(20)) {
      const response = await upload(h, carol, { name: bad.filename, bytes: bad.bytes });
      const body = (await response.json()) as { detail: string };
      expect(response.status, bad.case).toBe(bad.status);
      expect(body.detail, bad.case).toMatch(bad.detail);
    }
    expect(await listFiles(h, carol)).toEqual([]);
    expect(await storedContents(h)).toEqual(before);
  });

  it('refuses an 11 MB file with 413 before reading it', async () => {
    const before = await storedContents(h);
    const big = Buffer.concat([PNG.bytes, Buffer.alloc(11 * 1024 * 1024)]);
    const response = await upload(h, carol, { name: 'big.png', bytes: big });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { detail: string }).detail).toBe(
      'File too large. Maximum size: 10 MB',
    );
    expect(await storedContents(h)).toEqual(before);
  });

  it('stops reading a streamed (chunked) body at the limit: 413 and the connection is closed', async () => {
    const { request } = await import('node:http');
    const url = new URL(`${h.base}/api/v1/files/upload`);
    const boundary = 'folioBoundary123';
    const result = await new Promise<{ status: number; connection: string | undefined; sentMb: number }>(
      (resolve, reject) => {
        let sent = 0;
        let answered = false;
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: {
              ...carol.headers,
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'transfer-encoding': 'chunked',
            },
          },
          (res) => {
            answered = true;
            res.resume();
            resolve({
              status: res.statusCode ?? 0,
              connection: res.headers.connection,
              sentMb: sent / 2 ** 20,
            });
            req.destroy();
          },
        );
        // Before the answer, any error is a failure: a reset there means the 413 was lost on the way.
        req.on('error', (error) => {
          if (!answered) reject(error);
        });
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n\r\n`);
        // Up to 100 MB (ten times the limit, so socket buffers and a loaded machine leave a wide margin), one
        // chunk at a time, never ending the request: only an early answer ends this test.
        const chunk = Buffer.alloc(256 * 1024, 1);
        const pump = (): void => {
          while (sent < 100 * 2 ** 20) {
            sent += chunk.length;
            if (!req.write(chunk)) {
              req.once('drain', pump);
              return;
            }
          }
        };
        pump();
      },
    );
    expect(result.status).toBe(413);
    expect(result.connection).toBe('close');
    expect(result.sentMb).toBeLessThan(100);
  });
});

describe('batch upload', () => {
  it('keeps the good files and refuses the bad ones one by one', async () => {
    const dave = await h.signIn('dave@example.test');
    const encrypted = (await badFiles(20)).find((bad) => bad.case === 'a password-protected PDF');
    const response = await batchUpload(h, dave, [
      PDF,
      { name: 'notes.pdf', bytes: Buffer.from('just some text') },
      PNG,
      { name: 'secret.pdf', bytes: encrypted?.bytes ?? Buffer.alloc(0) },
      { name: 'huge.png', bytes: Buffer.concat([PNG.bytes, Buffer.alloc(11 * 1024 * 1024)]) },
    ]);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      batch_job_id: string;
      files: FileDto[];
      rejected: { filename: string; detail: string }[];
    };
    expect(body.files.map((file) => file.filename)).toEqual(['Contract – Résumé.pdf', 'page.png']);
    expect(body.files.every((file) => file.job_id === body.batch_job_id)).toBe(true);
    expect(body.rejected.map((item) => item.filename)).toEqual(['notes.pdf', 'secret.pdf', 'huge.png']);
    expect(body.rejected[0]?.detail).toMatch(/not supported/);
    expect(body.rejected[1]?.detail).toMatch(/password-protected/);
    expect(body.rejected[2]?.detail).toBe('File too large. Maximum size: 10 MB');
    expect((await listFiles(h, dave)).map((file) => file.id).sort()).toEqual(
      body.files.map((file) => file.id).sort(),
    );
  });

  it('answers 400 when no file is sent', async () => {
    const form = new FormData();
    form.append('note', 'hello');
    const response = await fetch(`${h.base}/api/v1/files/batch-upload`, {
      method: 'POST',
      headers: alice.headers,
      body: form,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: 'Expected files in multipart field "files"' });
  });
});

describe('download and preview', () => {
  it('streams the exact bytes with type and an RFC 5987 filename', async () => {
    const file = await uploadOk(alice, PDF);
    const response = await fetch(`${h.base}/api/v1/files/download/id/${file.id}/anything.pdf`, {
      headers: alice.headers,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Contract _ Resume.pdf"; filename*=UTF-8''Contract%20%E2%80%93%20R%C3%A9sum%C3%A9.pdf`,
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(PDF.bytes)).toBe(true);
  });

  it('renders a page-1 preview in the background and announces it', async () => {
    const file = await uploadOk(alice, PDF);
    const ready = await waitForPreview(h, alice, file.id);
    expect(ready.preview_available).toBe(true);
    const response = await fetch(`${h.base}/api/v1/files/download/id/${file.id}/x.pdf?preview=true`, {
      headers: alice.headers,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(560);
    expect(meta.height).toBeGreaterThan(560); // a portrait page
    expect(alice.events).toContainEqual(
      expect.objectContaining({ type: 'file.preview.ready', fileId: file.id }),
    );
  });
});

describe('preview not available', () => {
  it('answers 404 with a detail when a file has no preview', async () => {
    const file = await uploadOk(alice, PNG);
    await waitForPreview(h, alice, file.id);
    await new FileRepository(h.test.app.db).setPreview(file.id, 'none', null, new Date().toISOString());
    const response = await h.test.app.inject({
      method: 'GET',
      url: `/api/v1/files/download/id/${file.id}/page.png?preview=true`,
      headers: alice.headers,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'No preview available for this file' });
  });
});

describe('zip download', () => {
  it('streams a zip of the selected files with unique names', async () => {
    const a = await uploadOk(alice, { name: 'same.png', bytes: PNG.bytes });
    const b = await uploadOk(alice, { name: 'same.png', bytes: evalFile('doc_002/degraded.png') });
    const c = await uploadOk(alice, JPEG);
    const response = await fetch(`${h.base}/api/v1/files/download`, {
      method: 'POST',
      headers: { ...alice.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ file_ids: [a.id, b.id, c.id] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    const dir = await mkdtemp(path.join(tmpdir(), 'folio-zip-test-'));
    try {
      await writeFile(path.join(dir, 'out.zip'), Buffer.from(await response.arrayBuffer()));
      execFileSync('unzip', ['-q', 'out.zip', '-d', 'x'], { cwd: dir });
      expect((await readdir(path.join(dir, 'x'))).sort()).toEqual(['photo.JPG', 'same (2).png', 'same.png']);
      expect((await readFile(path.join(dir, 'x', 'same.png'))).equals(PNG.bytes)).toBe(true);
      expect(
        (await readFile(path.join(dir, 'x', 'same (2).png'))).equals(evalFile('doc_002/degraded.png')),
      ).toBe(true);
      expect((await readFile(path.join(dir, 'x', 'photo.JPG'))).equals(JPEG.bytes)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses an empty selection', async () => {
    const response = await h.test.app.inject({
      method: 'POST',
      url: '/api/v1/files/download',
      headers: alice.headers,
      payload: { file_ids: [] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'No files selected for download' });
  });
});

describe("ownership: another user's file is a 404 everywhere", () => {
  it('hides, refuses and keeps the file', async () => {
    const file = await uploadOk(alice, JPEG);
    await waitForPreview(h, alice, file.id);
    expect((await listFiles(h, bob)).some((item) => item.id === file.id)).toBe(false);
    const app = h.test.app;
    const asBob = { headers: bob.headers };
    const answers = [
      await app.inject({ method: 'GET', url: `/api/v1/files/download/id/${file.id}/photo.JPG`, ...asBob }),
      await app.inject({
        method: 'GET',
        url: `/api/v1/files/download/id/${file.id}/p.jpg?preview=true`,
        ...asBob,
      }),
      await app.inject({
        method: 'POST',
        url: '/api/v1/files/download',
        payload: { file_ids: [file.id] },
        ...asBob,
      }),
      await app.inject({ method: 'DELETE', url: `/api/v1/files/file/${file.id}`, ...asBob }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ detail: 'File not found' });
    }
    expect((await listFiles(h, alice)).some((item) => item.id === file.id)).toBe(true);
  });
});

describe('delete', () => {
  it('removes the row and the stored bytes and announces it', async () => {
    const erin = await h.signIn('erin@example.test');
    const file = await uploadOk(erin, PNG);
    await waitForPreview(h, erin, file.id);
    expect(await storedKeys(h)).toEqual(
      expect.arrayContaining([`objects/${file.id}/content`, `objects/${file.id}/preview.webp`]),
    );
    const response = await h.test.app.inject({
      method: 'DELETE',
      url: `/api/v1/files/file/${file.id}`,
      headers: erin.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: file.id, deleted: true });
    expect(await listFiles(h, erin)).toEqual([]);
    expect((await storedKeys(h)).filter((key) => key.includes(file.id))).toEqual([]);
    expect(erin.events).toContainEqual({ type: 'file.deleted', fileId: file.id });
    const again = await h.test.app.inject({
      method: 'DELETE',
      url: `/api/v1/files/file/${file.id}`,
      headers: erin.headers,
    });
    expect(again.statusCode).toBe(404);
  });
});
