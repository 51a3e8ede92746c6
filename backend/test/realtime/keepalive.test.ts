import Fastify, { type FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionTokens } from '../../src/auth/session-tokens.js';
import { InProcessEventBus } from '../../src/realtime/event-bus.js';
import { realtimeRoutes } from '../../src/realtime/websocket-routes.js';

// The route alone with a fast ping, authenticated by real session tokens.
const tokens = new SessionTokens('k'.repeat(48), 3600);
let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  app = Fastify();
  await app.register(realtimeRoutes, {
    prefix: '/api/v1',
    eventBus: new InProcessEventBus(),
    authenticateToken: async (token) => ({ id: await tokens.verify(token) }),
    pingIntervalMs: 100,
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const { token } = await tokens.issue({
    id: 'u1',
    email: 'u1@example.test',
    name: 'u1',
    given_name: null,
    family_name: null,
  });
  url = `${base.replace(/^http/, 'ws')}/api/v1/ws/updates?token=${token}`;
});

afterAll(async () => {
  await app.close();
});

describe('socket keep-alive', () => {
  it('pings an open socket periodically', async () => {
    const ws = new WebSocket(url);
    let pings = 0;
    ws.on('ping', () => (pings += 1));
    await new Promise((resolve) => ws.once('open', resolve));
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(pings).toBeGreaterThanOrEqual(3);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close(1000);
  });

  it('drops a peer that stops answering pings', async () => {
    const ws = new WebSocket(url, { autoPong: false });
    await new Promise((resolve) => ws.once('open', resolve));
    const code = await new Promise<number>((resolve) =>
      ws.once('close', (closeCode: number) => resolve(closeCode)),
    );
    // terminate() ends the TCP connection without a close frame: 1006 on the client.
    expect(code).toBe(1006);
  });
});
