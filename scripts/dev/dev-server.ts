import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { BuildProblem, HotUpdate } from '../../client/dev/dev-events.ts';

/** Hot modules kept for pages that are slow to ask: the last few updates'. */
const KEPT_MODULES = 64;
/** A refusal report is a sentence: anything longer is not one. */
const MAX_REPORT_BYTES = 4_096;

export interface DevServerOptions {
  readonly port: number;
  /** The port could not be had (another dev command has it, say). */
  readonly onListenError: (error: Error) => void;
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
  readonly close: () => Promise<void>;
}

/** The request's path, or undefined for a target no URL parser takes. */
function pathOf(target: string | undefined): string | undefined {
  try {
    return new URL(target ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

/** What a page sends when it refused an update; undefined for anything else. */
function parseReport(body: string): { readonly update: number; readonly reason: string } | undefined {
  let report: unknown;
  try {
    report = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof report !== 'object' || report === null || !('update' in report) || !('reason' in report)) return undefined;
  const { update, reason } = report;
  return typeof update === 'number' && typeof reason === 'string' ? { update, reason } : undefined;
}

const CORS = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' } as const;

/**
 * The dev command's side server, on loopback: server-sent events to the open pages, the dev
 * client they import, the hot modules, and the pages' word when one could not refresh. Pages
 * are served from another port, so every answer allows any origin (loopback only).
 */
export function startDevServer({ port, devClient, onRefused, onListenError }: DevServerOptions): DevServer {
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

  /** A page's word that it refused an update: 204, or 400 for anything else, 413 past a sentence's size. */
  function readReport(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    let refused = false;
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      if (refused) return;
      body += chunk;
      if (body.length <= MAX_REPORT_BYTES) return;
      refused = true;
      res.writeHead(413, { ...CORS, Connection: 'close' }).end();
    });
    req.on('end', () => {
      if (refused) return;
      const report = parseReport(body);
      if (report === undefined) {
        res.writeHead(400, CORS).end();
        return;
      }
      res.writeHead(204, CORS).end();
      onRefused(report.update, report.reason);
    });
  }

  const server = createServer(function devEvents(req, res) {
    const path = pathOf(req.url);
    if (path === undefined) {
      res.writeHead(400, CORS).end();
      return;
    }
    if (path === '/refused' && req.method === 'POST') {
      readReport(req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...CORS, Allow: path === '/refused' ? 'POST' : 'GET, HEAD' }).end();
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
  });
  server.on('error', onListenError);
  server.listen(port, '127.0.0.1');

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
    close() {
      for (const res of listeners) res.end();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
