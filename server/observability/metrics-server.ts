import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * Prometheus scrapes this listener on its own port (docs/deployment.md), so the series are never
 * reachable through the public port or the proxy in front of it.
 */
export function createMetricsServer(registry: Registry): Server {
  return createServer(function serveMetrics(req, res) {
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not Found\n');
      return;
    }
    registry.metrics().then(
      (body) => {
        res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(body);
      },
      () => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
      },
    );
  });
}
