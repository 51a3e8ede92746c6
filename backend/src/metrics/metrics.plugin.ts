// GET /metrics on an API node (Prometheus text format), and the request latency histogram by route.
// Called on the root app before the domains register, so its hook sees every route.
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

export function installMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern (not the URL) keeps the label set small; unmatched URLs share one label.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
