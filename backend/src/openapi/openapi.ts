// The OpenAPI document is produced from the route schemas themselves (declared once with TypeBox).
import fastifySwagger from '@fastify/swagger';
import { API_BASE_PATH } from '@folio/shared';
import type { FastifyInstance } from 'fastify';
import { ErrorSchema } from '../auth/auth.schemas.js';

export const API_PREFIX = API_BASE_PATH;

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Folio API', version: '1.0.0' },
      servers: [{ url: API_PREFIX }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearerAuth: [] }],
    },
    // Public routes say so in the document, so generated clients send no token there; every other route
    // documents the 401 the authentication hook answers.
    transform({ schema, url, route }) {
      if (!schema || schema.hide) return { schema, url };
      if (route.config?.public === true) return { schema: { ...schema, security: [] }, url };
      const response = (schema.response ?? {}) as Record<string, unknown>;
      if ('401' in response) return { schema, url };
      return { schema: { ...schema, response: { ...response, 401: ErrorSchema } }, url };
    },
  });
}
