// Every /api route requires `Authorization: Bearer <token>` unless it declares `config: { public: true }`
// (health, auth endpoints, the Stripe webhook, the WebSocket route which authenticates its query token).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../errors.js';
import type { AuthService, AuthUser } from './auth.service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** True for routes anyone may call without a token. */
    public?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user; set on every non-public /api route before its handler runs. */
    user: AuthUser;
  }
  interface FastifyInstance {
    /** Resolves a Bearer token to its user or throws a 401 (the WebSocket route reuses it). */
    authenticateToken(token: string): Promise<AuthUser>;
  }
}

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (!header) throw new UnauthorizedError('Not authenticated');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new UnauthorizedError('Invalid authorization header, expected: Bearer <token>');
  return match[1];
}

/** Installed on the root instance (not as an encapsulated plugin) so the hook covers every route. */
export function installAuthentication(app: FastifyInstance, auth: AuthService): void {
  const authenticateToken = (token: string) => auth.authenticateToken(token);
  app.decorate('authenticateToken', authenticateToken);
  app.decorateRequest('user', null as unknown as AuthUser);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public === true || request.is404) return;
    // The matched route, not the raw URL: `/%61pi/v1/...` reaches the same route and needs the same token.
    if (!(request.routeOptions.url ?? '').startsWith('/api/')) return;
    request.user = await authenticateToken(bearerToken(request));
  });
}
