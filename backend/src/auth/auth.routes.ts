import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { AuthService } from './auth.service.js';
import { bearerToken } from './authenticate.js';
import { DevLoginBody, ErrorSchema, GoogleLoginBody, SessionSchema } from './auth.schemas.js';

export const authRoutes: FastifyPluginCallbackTypebox<{ auth: AuthService }> = (app, { auth }, done) => {
  app.post(
    '/auth/google',
    {
      config: { public: true },
      schema: {
        operationId: 'googleLogin',
        tags: ['auth'],
        summary: 'Sign in with a Google ID token',
        body: GoogleLoginBody,
        response: { 200: SessionSchema, 401: ErrorSchema, 422: ErrorSchema, 503: ErrorSchema },
      },
    },
    (request) => auth.googleLogin(request.body.credential),
  );

  app.post(
    '/auth/dev-login',
    {
      config: { public: true },
      schema: {
        operationId: 'devLogin',
        tags: ['auth'],
        summary: 'Development sign-in by email (404 unless DEV_LOGIN is on)',
        body: DevLoginBody,
        response: { 200: SessionSchema, 404: ErrorSchema, 422: ErrorSchema },
      },
    },
    (request) => auth.devLogin(request.body.email, request.body.name),
  );

  app.post(
    '/auth/refresh',
    {
      schema: {
        operationId: 'refreshToken',
        tags: ['auth'],
        summary: 'Exchange a valid token for a fresh session token',
        response: { 200: SessionSchema, 401: ErrorSchema },
      },
    },
    // The hook has verified the token already; refresh reads its sign-in time.
    (request) => auth.refresh(bearerToken(request)),
  );
  done();
};
