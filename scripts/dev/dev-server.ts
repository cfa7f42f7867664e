import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { BuildProblem, HotUpdate } from '../../client/dev/dev-events.ts';

/** Hot modules kept for pages that are slow to ask: the last few updates'. */
const KEPT_MODULES = 64;
/** A refusal report is a sentence: anything longer is not one. */
const MAX_REPORT_BYTES = 4_096;

export interface DevServerOptions {
  readonly port: number;
  /** The page's dev client (client/dev/dev-client.ts), built once. */
  readonly devClient: string;
  /** A page could not apply update `update` in place and reloads: why, once per update. */
  readonly onRefused: (update: number, reason: string) => void;
}

export interface DevServer {
  readonly reload: () => void;
  /** The server started after a save listens: a page that refused that save's update reloads now. */
  readonly restarted: () => void;
  readonly hot: (update: HotUpdate) => void;
  readonly swapStyles: (swaps: readonly (readonly [string, string])[]) => void;
  /** The build's errors (shown to every page, and to each that connects, until cleared), or none. */
  readonly buildErrors: (problems: readonly BuildProblem[] | undefined) => void;
  /** Serves `code` as a module at the returned URL. */
  readonly host: (name: string, code: string) => string;
}

const CORS = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' } as const;

/**
 * The dev command's side server, on loopback: server-sent events to the open pages, the dev
 * client they import, the hot modules, and the pages' word when one could not refresh. Pages
 * are served from another port, so every answer allows any origin (loopback only).
 */
export function startDevServer({ port, devClient, onRefused }: DevServerOptions): DevServer {
  const listeners = new Set<ServerResponse>();
  const modules = new Map<string, string>();
  let errors: readonly BuildProblem[] | undefined;
  let served = 0;

  function send(res: ServerResponse, event: string, data: unknown): void {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
  function broadcast(event: string, data: unknown): void {
    for (const res of listeners) send(res, event, data);
  }

  function readReport(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_REPORT_BYTES) req.destroy();
    });
    req.on('end', () => {
      res.writeHead(204, CORS).end();
      try {
        const report: unknown = JSON.parse(body);
        if (typeof report === 'object' && report !== null && 'update' in report && 'reason' in report && typeof report.update === 'number' && typeof report.reason === 'string') {
          onRefused(report.update, report.reason);
        }
      } catch {
        // Not a page's report: nothing to say.
      }
    });
  }

  createServer(function devEvents(req, res) {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'POST' && path === '/refused') {
      readReport(req, res);
      return;
    }
    if (req.method !== 'GET') {
      res.writeHead(405, CORS).end();
      return;
    }
    if (path === '/events') {
      res.writeHead(200, { ...CORS, 'Content-Type': 'text/event-stream' });
      res.write(': connected\n\n');
      if (errors !== undefined) send(res, 'build-error', errors);
      listeners.add(res);
      req.on('close', () => listeners.delete(res));
      return;
    }
    const code = path === '/dev-client.js' ? devClient : modules.get(path);
    if (code === undefined) {
      res.writeHead(404, CORS).end();
      return;
    }
    res.writeHead(200, { ...CORS, 'Content-Type': 'text/javascript; charset=utf-8' }).end(code);
  }).listen(port, '127.0.0.1');

  return {
    reload: () => broadcast('reload', 'now'),
    restarted: () => broadcast('restarted', true),
    hot: (update) => broadcast('hot', update),
    swapStyles: (swaps) => broadcast('css', swaps),
    buildErrors(problems) {
      const had = errors !== undefined;
      errors = problems;
      if (problems !== undefined) broadcast('build-error', problems);
      else if (had) broadcast('build-ok', true);
    },
    host(name, code) {
      served += 1;
      const path = `/hot/${served}/${name.replace(/[^\w.-]+/g, '-')}.js`;
      modules.set(path, code);
      for (const old of modules.keys()) {
        if (modules.size <= KEPT_MODULES) break;
        modules.delete(old);
      }
      return `http://localhost:${port}${path}`;
    },
  };
}
