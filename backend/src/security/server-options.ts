// The HTTP server's own limits (timeouts, keep-alive, body size) and a logger that never writes a token.
import type { FastifyHttpOptions, FastifyRequest } from 'fastify';
import type { Server } from 'node:http';
import type { DestinationStream } from 'pino';
import type { Settings } from '../settings.js';

const REDACTED = '[redacted]';

/** `/api/v1/ws/updates?token=abc` → `/api/v1/ws/updates?token=[redacted]` (any token-like parameter). */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|access_token|id_token|credential)=)[^&#]*/gi, `$1${REDACTED}`);
}

export function serverOptions(
  settings: Readonly<Settings>,
  logStream?: DestinationStream,
): FastifyHttpOptions<Server> {
  const requestTimeoutMs = settings.requestTimeoutSeconds * 1000;
  return {
    logger: {
      level: settings.logLevel,
      ...(logStream ? { stream: logStream } : {}),
      // Tokens travel in the Authorization header and in the WebSocket URL; neither reaches a log line.
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'token'], censor: REDACTED },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
    },
    bodyLimit: settings.jsonBodyLimitKb * 1024,
    // Behind a reverse proxy, the client address (rate limits, logs) comes from X-Forwarded-For.
    trustProxy: settings.trustProxy,
    // Slow senders: the whole request (headers and body) must arrive within requestTimeout.
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutSeconds * 1000,
    maxRequestsPerSocket: settings.maxRequestsPerSocket,
    http: {
      headersTimeout: Math.min(60_000, requestTimeoutMs),
      // Node looks for overdue requests this often (30 s by default, too coarse for short timeouts).
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(requestTimeoutMs / 4))),
    },
    // On close, idle keep-alive connections go at once and requests in flight may finish (an upload is not
    // cut off); main.ts bounds that wait with SHUTDOWN_GRACE_SECONDS, so a client holding a download open
    // without reading cannot keep shutdown waiting forever.
    forceCloseConnections: 'idle',
  };
}
