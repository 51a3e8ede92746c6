// A worker's own small HTTP server (METRICS_PORT): GET /metrics for Prometheus and GET /api/v1/ready for the
// container healthcheck (the same path as on API nodes, so one image has one healthcheck).
import { createServer, type Server } from 'node:http';
import { checkReadiness, type ReadinessCheck } from '../health/readiness.js';
import type { Metrics } from './metrics.js';

export async function startMetricsServer(
  metrics: Metrics,
  checks: readonly ReadinessCheck[],
  host: string,
  port: number,
): Promise<Server> {
  const server = createServer((request, response) => {
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    };
    const url = (request.url ?? '').split('?', 1)[0];
    if (request.method === 'GET' && url === '/metrics') {
      metrics.registry.metrics().then(
        (text) => send(200, metrics.registry.contentType, text),
        (error: unknown) => send(500, 'text/plain', String(error)),
      );
    } else if (request.method === 'GET' && url === '/api/v1/ready') {
      void checkReadiness(checks, 2_000).then((report) =>
        report.ready
          ? send(200, 'application/json', JSON.stringify({ status: 'ready' }))
          : send(
              503,
              'application/json',
              JSON.stringify({ detail: `Not ready: ${report.failing.join(', ')} unreachable` }),
            ),
      );
    } else {
      send(404, 'application/json', JSON.stringify({ detail: 'Not found' }));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
