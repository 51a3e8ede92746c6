// The browser side of the embedded default: /config.js (runtime settings of spec §7) and the built web
// app at `/`, with every other non-API path falling back to index.html for the SPA router.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Settings } from '../settings.js';

/** JSON literal that is also safe inside an inline <script> (no `</script>` breakout). */
const jsString = (value: string): string => JSON.stringify(value).replace(/</g, '\\u003c');

export function configScript(settings: Settings): string {
  const globals: [string, string][] = [
    ['API_BASE_URL', '/api/v1'],
    ['GOOGLE_CLIENT_ID', settings.googleClientId],
    ['APP_NAME', settings.appName],
    ['APP_DESCRIPTION', settings.appDescription],
    ['ENABLE_DEVTOOLS', String(settings.enableDevtools)],
    ['ENABLE_LOGGING', String(settings.enableLogging)],
    ['DEV_LOGIN_ENABLED', String(settings.devLogin)],
  ];
  return globals.map(([name, value]) => `window.${name} = ${jsString(value)};`).join('\n') + '\n';
}

/** Registered on the root instance: it owns the not-found handler of the whole app. */
export async function installWeb(app: FastifyInstance, settings: Settings): Promise<void> {
  const script = configScript(settings);
  app.get('/config.js', { config: { public: true }, schema: { hide: true } }, (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(script),
  );

  const indexFile = path.join(settings.webDistDir, 'index.html');
  const hasWebApp = existsSync(indexFile);
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: settings.webDistDir,
      wildcard: false,
      index: ['index.html'],
      setHeaders(reply, filePath) {
        // Vite puts content-hashed bundles under assets/; everything else must be revalidated.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    if (!isApi && hasWebApp && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ detail: 'Not found' });
  });
}
