import helmet from 'helmet';

/** Stands where the nonce goes; base64 never contains it. */
const NONCE = '\u0000nonce\u0000';

export interface ContentSecurityPolicyOptions {
  /** Script URLs or origins allowed besides nonce-bearing scripts (e.g. analytics). */
  readonly scriptSources?: readonly string[];
  /** Origins `fetch`, beacons and EventSource may reach besides our own. */
  readonly connectSources?: readonly string[];
}

export type ContentSecurityPolicy = (nonce: string) => string;

/**
 * helmet's default policy, with scripts allowed only by the per-request nonce and
 * `'strict-dynamic'` (so modules those scripts import load too) and inline styles only by the
 * nonce. The header string is built once; a request only splices its nonce in.
 * https://www.w3.org/TR/CSP3/#strict-dynamic-usage
 */
export function createContentSecurityPolicy(options: ContentSecurityPolicyOptions = {}): ContentSecurityPolicy {
  const directives: Record<string, readonly string[]> = {
    ...helmet.contentSecurityPolicy.getDefaultDirectives(),
    'script-src': [`'nonce-${NONCE}'`, "'strict-dynamic'", ...(options.scriptSources ?? [])],
    'style-src': ["'self'", `'nonce-${NONCE}'`],
    'connect-src': ["'self'", ...(options.connectSources ?? [])],
  };
  const policy = Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join(';');
  const parts = policy.split(NONCE);
  return function contentSecurityPolicy(nonce: string): string {
    return parts.join(nonce);
  };
}
