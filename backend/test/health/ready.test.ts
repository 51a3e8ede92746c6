// GET /api/v1/ready names the parts that do not answer; GET /metrics serves the Prometheus registry.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** A loopback port with nothing listening on it. */
function deadPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/v1/ready', () => {
  it('answers 200 when the database, the queue and the storage answer', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
  });

  it('answers 503 naming the queue and the storage when Redis and S3 are unreachable', async () => {
    const redisPort = await deadPort();
    const s3Port = await deadPort();
    const broken = await createTestApp({
      env: {
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        S3_ENDPOINT_URL: `http://127.0.0.1:${s3Port}`,
        S3_BUCKET: 'folio-ready',
        S3_ACCESS_KEY_ID: 'x',
        S3_SECRET_ACCESS_KEY: 'y',
      },
    });
    try {
      const response = await broken.app.inject({ method: 'GET', url: '/api/v1/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ detail: 'Not ready: queue, storage unreachable' });
      // Liveness does not depend on them.
      expect((await broken.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    } finally {
      await broken.close();
    }
  }, 20_000);

  it('answers 503 naming the database when it does not answer', async () => {
    const broken = await createTestApp();
    try {
      await broken.database.db.destroy();
      const response = await broken.app.inject({ method: 'GET', url: '/api/v1/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ detail: 'Not ready: database, queue unreachable' });
    } finally {
      await broken.close();
    }
  });
});

describe('GET /metrics', () => {
  it('serves request latency by route, queue depth, credits and sockets in Prometheus text', async () => {
    await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.body;
    expect(text).toMatch(
      /folio_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/health",status="200"\} 1/,
    );
    expect(text).toMatch(/^folio_queue_waiting_jobs 0$/m);
    expect(text).toMatch(/^folio_queue_oldest_wait_seconds 0$/m);
    expect(text).toMatch(/^folio_credits_debited 0$/m);
    expect(text).toMatch(/^folio_credits_refunded 0$/m);
    expect(text).toMatch(/^folio_sockets_connected 0$/m);
  });
});
