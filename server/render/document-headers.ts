import { extendHead, prepareHead, type PreparedHead } from '../http/response-head.ts';
import type { ContentSecurityPolicy } from '../security/content-security-policy.ts';
import { securityHeaderDefaults } from '../security/security-headers.ts';
import type { ContentEncoding } from '../http/compression.ts';
import { HTML_HEADERS } from '../http/html-headers.ts';

export interface DocumentHeadersOptions {
  /** The page policy, for the request's nonce. */
  readonly policy: ContentSecurityPolicy;
  /** Pages may be compressed: their answers vary with Accept-Encoding. */
  readonly compression: boolean;
}

/** A document's whole head for its encoding, nonce, time to shell and the cookie it sets, if any. */
export type DocumentHeaders = (encoding: ContentEncoding | undefined, nonce: string, shellMs: number, setCookie?: string) => PreparedHead;

/**
 * The headers of a page's document: the HTML headers, Vary and Content-Encoding, helmet's headers
 * and Permissions-Policy are made once per encoding; a request adds its Content-Security-Policy,
 * Server-Timing and form-token cookie (and the request id, when written). Setting the fifteen-odd headers one by
 * one, each validated by Node, costs about a tenth of a small answer's CPU (measured on the 404).
 */
export function createDocumentHeaders({ policy, compression }: DocumentHeadersOptions): DocumentHeaders {
  const security = securityHeaderDefaults();
  const vary = compression ? ([['Vary', 'Accept-Encoding']] as const) : [];
  function headFor(encoding?: ContentEncoding): PreparedHead {
    return prepareHead([...HTML_HEADERS, ...vary, ...(encoding === undefined ? [] : [['Content-Encoding', encoding] as const]), ...security]);
  }
  const heads = { identity: headFor(), br: headFor('br'), gzip: headFor('gzip') };
  return function documentHeaders(encoding, nonce, shellMs, setCookie) {
    const csp = ['Content-Security-Policy', policy(nonce)] as const;
    // Browser tools show the server's share of the wait (docs/observability.md).
    const timing = ['Server-Timing', `shell;desc="React shell";dur=${shellMs.toFixed(1)}`] as const;
    return extendHead(heads[encoding ?? 'identity'], setCookie === undefined ? [csp, timing] : [csp, timing, ['Set-Cookie', setCookie]]);
  };
}
