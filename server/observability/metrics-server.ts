import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createDigest } from './digest.ts';

/**
 * Prometheus scrapes this listener on its own port (docs/observability.md), so the series are
 * never reachable through the public port or the proxy in front of it. A failed scrape is
 * logged like any server error: one line with a digest, which the 500 answer names.
 */
export function createMetricsServer(registry: Registry, logger: Logger): Server {
  return createServer(function serveMetrics(req, res) {
    // A query does not change the path: a scrape job with `params` sends one.
    const path = req.url?.split('?', 1)[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not Found\n');
      return;
    }
    registry.metrics().then(
      (body) => {
        res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(body);
      },
      (error: unknown) => {
        const digest = createDigest();
        logger.error({ digest, err: error }, 'metrics scrape failed');
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(`metrics unavailable: digest ${digest}\n`);
      },
    );
  });
}
