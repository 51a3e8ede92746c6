// The OpenAPI document is produced from the route schemas themselves (declared once with TypeBox).
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

export const API_PREFIX = '/api/v1';

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
    // Public routes say so in the document too, so generated clients send no token there.
    transform({ schema, url, route }) {
      if (route.config?.public === true && schema && !schema.hide) {
        return { schema: { ...schema, security: [] }, url };
      }
      return { schema, url };
    },
  });
}
