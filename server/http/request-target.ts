import type { IncomingMessage } from 'node:http';

/** RFC 9112 §3.2.2: absolute-form, the only form besides origin-form (`/x`) and `*` a GET may use here. */
const ABSOLUTE_FORM = /^https?:\/\//i;

/**
 * Why Express's router could not read this target, or `undefined` when it can. The router reads
 * the path with `url.parse` (through `parseurl`): where that throws (`http://[::1/x`,
 * `http://a@[/`, `http://[::1]:x/`) or finds no path (`http://`, `a:`), the router skips every
 * middleware and answers with its bare "Cannot GET" 404, and `url.parse` prints a DEP0170
 * warning. An absolute-form target is readable when the WHATWG parser reads it (every target
 * that `url.parse` throws or warns on fails it); origin-form and `*` always are.
 */
export function unreadableTargetProblem(target: string): string | undefined {
  if (target.startsWith('/') || target === '*') return undefined;
  if (!ABSOLUTE_FORM.test(target)) return 'request target is not origin-form or absolute-form';
  return URL.canParse(target) ? undefined : 'absolute-form request target that does not parse';
}

const unreadable = new WeakMap<IncomingMessage, string>();
/** Requests whose target was `*` (asterisk-form), set aside as `/` for the router. */
const asteriskForm = new WeakSet<IncomingMessage>();

/**
 * Where an absolute-form target's path begins (`http://user:secret@host/x?y`, RFC 9112 §3.2.2):
 * after its authority, which ends at the first `/`, `?` or `#`; without a path, the root.
 */
function pathOfAbsoluteTarget(target: string): string {
  const authority = target.indexOf('//');
  if (authority === -1) return target;
  for (let at = authority + 2; at < target.length; at += 1) {
    const character = target[at];
    if (character === '/') return target.slice(at);
    if (character === '?' || character === '#') return `/${target.slice(at)}`;
  }
  return '/';
}

/**
 * The target as the app reads it: the origin form, path and query. An absolute-form target's
 * scheme and host play no part here (docs/security.md), and a fragment, which no client may send
 * (RFC 9112 §3.2), none anywhere. Read so, the router never hands the target to `url.parse`,
 * which it does for these two, and which Node deprecates with a warning printed on stderr, as
 * text, in the middle of the JSON log (DEP0169: Node spares code in `node_modules`, but the
 * server is a bundle). The log's path (request-path.ts) is this, without the query.
 */
export function originForm(target: string): string {
  const path = target.startsWith('/') || target === '*' ? target : pathOfAbsoluteTarget(target);
  const fragment = path.indexOf('#');
  return fragment === -1 ? path : path.slice(0, fragment);
}

/**
 * Reads the target in its origin form (originForm), and lets a request whose target the router
 * cannot read meet the app all the same, so it gets the 400 page with a request id and the
 * security headers, a log line and a metric: the problem is kept for the malformed-request check,
 * the router reads `/` instead, and the target as sent stays `originalUrl` (Express keeps one it
 * finds), which the log line shows.
 */
export function setAsideUnreadableTarget(req: IncomingMessage): void {
  const target = req.url ?? '';
  // Nearly every request: a path, nothing to read otherwise.
  if (target.startsWith('/') && !target.includes('#')) return;
  if (target === '*') {
    // The router would hand `*` to url.parse too (DEP0169): it reads `/`, and the malformed-request check answers it.
    asteriskForm.add(req);
    Object.assign(req, { originalUrl: target });
    req.url = '/';
    return;
  }
  const problem = unreadableTargetProblem(target);
  if (problem === undefined) {
    req.url = originForm(target);
    return;
  }
  unreadable.set(req, problem);
  Object.assign(req, { originalUrl: target });
  req.url = '/';
}

/** The problem `setAsideUnreadableTarget` found with this request's target, if any. */
export function unreadableTargetOf(req: IncomingMessage): string | undefined {
  return unreadable.get(req);
}

/**
 * Whether the request's target is `*` (RFC 9112 §3.2.4): set aside by `setAsideUnreadableTarget`,
 * or as sent where the app runs without the product's HTTP server (a test's supertest).
 */
export function isAsteriskForm(req: IncomingMessage): boolean {
  return asteriskForm.has(req) || req.url === '*';
}
