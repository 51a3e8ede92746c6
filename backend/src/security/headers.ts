// Security headers on every answer (@fastify/helmet), no caching of API answers, and CORS for the one
// configured origin only.
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Settings } from '../settings.js';

const GOOGLE_SIGN_IN = 'https://accounts.google.com/gsi/';

/** CSP hashes of the inline scripts of the built index.html (the theme snippet), so no 'unsafe-inline'. */
export function inlineScriptHashes(webDistDir: string): string[] {
  const indexFile = path.join(webDistDir, 'index.html');
  if (!existsSync(indexFile)) return [];
  const html = readFileSync(indexFile, 'utf8');
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (match) =>
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
  );
}

export function contentSecurityPolicy(settings: Readonly<Settings>): Record<string, string[]> {
  return {
    defaultSrc: ["'self'"],
    // pdf.js may compile WebAssembly image decoders; that is not inline script.
    scriptSrc: [
      "'self'",
      ...inlineScriptHashes(settings.webDistDir),
      `${GOOGLE_SIGN_IN}client`,
      "'wasm-unsafe-eval'",
    ],
    styleSrc: ["'self'", "'unsafe-inline'", `${GOOGLE_SIGN_IN}style`],
    imgSrc: ["'self'", 'data:', 'blob:', 'https://*.googleusercontent.com'],
    mediaSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", GOOGLE_SIGN_IN],
    frameSrc: ["'self'", 'blob:', GOOGLE_SIGN_IN],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

export async function installHeaders(app: FastifyInstance, settings: Readonly<Settings>): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(settings) },
    frameguard: { action: 'deny' },
    // Google's sign-in popup talks back to its opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    hsts: settings.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });

  // API answers carry user data: never stored by a browser or a shared cache.
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApi(request) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  if (settings.corsOrigin !== '') installCors(app, settings.corsOrigin);
}

function isApi(request: FastifyRequest): boolean {
  const url = request.routeOptions.url ?? request.url;
  return url === '/api' || url.startsWith('/api/');
}

/** Only `origin` may call the API from a browser; preflights from it are answered here. */
function installCors(app: FastifyInstance, origin: string): void {
  const allow = (reply: FastifyReply) =>
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.origin !== origin) return;
    allow(reply);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      await reply
        .header('access-control-allow-methods', 'GET, POST, DELETE')
        .header('access-control-allow-headers', 'authorization, content-type')
        .header('access-control-max-age', '600')
        .status(204)
        .send();
    }
  });
}
