// Maintenance mode (MAINTENANCE_MODE): every /api/v1 route answers 503 except the health check, so operators
// can still see the process is up. The web app turns the detail into the spec's maintenance text (§2, §8).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceUnavailableError } from '../errors.js';
import { API_PREFIX } from '../openapi/openapi.js';
import type { Settings } from '../settings.js';

export const MAINTENANCE_DETAIL = 'Folio is under maintenance. Please try again later.';

const HEALTH_PATH = `${API_PREFIX}/health`;

function isApiPath(pathname: string): boolean {
  return pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`);
}

/** The matched route's path, else the decoded URL path: `/%61pi/v1/...` is an API path too. */
function normalisedPath(request: FastifyRequest): string {
  if (request.routeOptions.url !== undefined) return request.routeOptions.url;
  const raw = request.url.split('?', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Installed on the root instance before authentication, so an unauthenticated call gets 503, not 401. */
export function installMaintenanceMode(app: FastifyInstance, settings: Readonly<Settings>): void {
  if (!settings.maintenanceMode) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const pathname = normalisedPath(request);
    const open = !isApiPath(pathname) || (request.method === 'GET' && pathname === HEALTH_PATH);
    done(open ? undefined : new ServiceUnavailableError(MAINTENANCE_DETAIL));
  });
}
