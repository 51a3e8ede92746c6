// GET /api/v1/ws/updates?token=... — one socket per browser tab; each socket receives, as JSON, every event
// published for its user and nothing else. A bad or expired token closes the socket with 1008.
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import type { WebSocket } from 'ws';
import type { EventBus } from './event-bus.js';

export const POLICY_VIOLATION = 1008;
/** Sent to every socket when this node shuts down: the web app reconnects (to another node). */
export const GOING_AWAY = 1001;

export interface RealtimeRoutesOptions {
  eventBus: EventBus;
  /** The API's Bearer token check: resolves to the user or throws. */
  authenticateToken: (token: string) => Promise<{ id: string }>;
  pingIntervalMs?: number;
  /** Reports the number of open sockets to the metrics. */
  metrics?: { trackSockets(count: () => number): void };
}

const DEFAULT_PING_MS = 25_000;
/** The feed is one-way: a client frame bigger than this closes the socket (1009) before it is buffered. */
export const MAX_CLIENT_FRAME_BYTES = 4 * 1024;
/** Clients have nothing to say; more messages than this in one window close the socket (1008). */
export const MAX_CLIENT_MESSAGES = 10;
const MESSAGE_WINDOW_MS = 10_000;
// setTimeout cannot wait longer than ~24.8 days.
const MAX_TIMER_MS = 2_147_483_647;

export async function realtimeRoutes(app: FastifyInstance, options: RealtimeRoutesOptions): Promise<void> {
  const pingIntervalMs = options.pingIntervalMs ?? DEFAULT_PING_MS;
  if (!app.hasDecorator('websocketServer')) {
    await app.register(websocket, {
      options: { maxPayload: MAX_CLIENT_FRAME_BYTES },
      preClose(done) {
        for (const client of this.websocketServer.clients) client.close(GOING_AWAY, 'Server shutting down');
        this.websocketServer.close(() => done());
      },
    });
  }
  options.metrics?.trackSockets(() => app.websocketServer.clients.size);

  app.get<{ Querystring: { token?: string } }>(
    '/ws/updates',
    { websocket: true, config: { public: true }, schema: { hide: true } },
    (socket, request) => {
      const token = request.query.token ?? '';
      // Messages are never expected from the client; the socket is a one-way feed.
      let windowStart = Date.now();
      let messages = 0;
      socket.on('message', () => {
        const now = Date.now();
        if (now - windowStart > MESSAGE_WINDOW_MS) {
          windowStart = now;
          messages = 0;
        }
        messages += 1;
        if (messages > MAX_CLIENT_MESSAGES) socket.close(POLICY_VIOLATION, 'Too many messages');
      });
      void attach(socket, token, options, pingIntervalMs).catch((error: unknown) => {
        request.log.warn({ err: error }, 'realtime socket rejected');
        socket.close(POLICY_VIOLATION, 'Invalid or expired token');
      });
    },
  );
}

async function attach(
  socket: WebSocket,
  token: string,
  options: RealtimeRoutesOptions,
  pingIntervalMs: number,
): Promise<void> {
  if (!token) throw new Error('missing token');
  const user = await options.authenticateToken(token);
  // Verified above, so its claims can be read: the socket must not outlive the token.
  const { exp } = decodeJwt(token);
  if (socket.readyState !== socket.OPEN) return;

  const unsubscribe = options.eventBus.subscribe(user.id, (event) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
  });

  // Keep-alive through proxies, and drop peers that stopped answering.
  let alive = true;
  socket.on('pong', () => {
    alive = true;
  });
  const ping = setInterval(() => {
    if (!alive) {
      socket.terminate();
      return;
    }
    alive = false;
    socket.ping();
  }, pingIntervalMs);

  let expiry: NodeJS.Timeout | undefined;
  if (exp !== undefined) {
    const msLeft = exp * 1000 - Date.now();
    expiry = setTimeout(
      () => socket.close(POLICY_VIOLATION, 'Token expired'),
      Math.min(Math.max(msLeft, 0), MAX_TIMER_MS),
    );
  }

  socket.once('close', () => {
    clearInterval(ping);
    if (expiry) clearTimeout(expiry);
    unsubscribe();
  });
}
