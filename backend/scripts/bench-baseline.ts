// The minimal Fastify app the load bench compares Folio with, in the same run and on the same machine: static
// JSON answers (serialised once), an upload route that reads the body and answers static JSON, and a WebSocket
// route that holds sockets and sends one message to all of them on POST /broadcast. Started as its own
// process by bench-load.ts: `node --import tsx scripts/bench-baseline.ts PORT LIST_JSON_BYTES`.
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import type WebSocket from 'ws';

const port = Number(process.argv[2]);
const listBytes = Number(process.argv[3] ?? 0);
const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
const ok = JSON.stringify({ status: 'ok' });
// An answer the size of Folio's /files/all for 1,000 files, made once.
const list = JSON.stringify({ files: 'x'.repeat(Math.max(0, listBytes - 14)) });
app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_req, body, done) =>
  done(null, body),
);
app.get('/health', (_req, reply) => reply.type('application/json').send(ok));
app.get('/list', (_req, reply) => reply.type('application/json').send(list));
app.post('/upload', (_req, reply) => reply.type('application/json').send(ok));
const sockets = new Set<WebSocket>();
await app.register(websocket);
app.get('/ws', { websocket: true }, (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});
app.post('/broadcast', (_req, reply) => {
  for (const socket of sockets) socket.send(ok);
  return reply.type('application/json').send(JSON.stringify({ sent: sockets.size }));
});
await app.listen({ host: '127.0.0.1', port });
