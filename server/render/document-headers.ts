import { NAVIGATION_HEADER, NAVIGATION_SCOPE_HEADER, NAVIGATION_KEEP_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { extendHead, prepareHead, type HeaderPair, type PreparedHead } from '../http/response-head.ts';
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

/** What a page's `load` or action asked its answer to carry (server/render/page-answer.ts): never a header the framework owns. */
export interface OwnHeaders {
  readonly headers: readonly HeaderPair[];
  /** Replaces the default `Cache-Control` when given. */
  readonly cacheControl: string | undefined;
}

/** A document's whole head for its encoding, request id, nonce, time to shell, the cookie it sets and the page's own headers, if any. */
export type DocumentHeaders = (encoding: ContentEncoding | undefined, requestId: string, nonce: string, shellMs: number, setCookie?: string, own?: OwnHeaders) => PreparedHead;

/**
 * A page with a `Cache-Control` of its own may be kept, by the browser or a shared cache: the
 * document and the in-place navigation's data live at one address, so the copy is told apart
 * by the headers that choose between them (and the data's scope).
 */
export const NAVIGATION_VARY = `${NAVIGATION_HEADER}, ${NAVIGATION_SCOPE_HEADER}, ${NAVIGATION_KEEP_HEADER}`;

/**
 * The headers of a page's document: the HTML headers, Vary and Content-Encoding, helmet's headers
 * and Permissions-Policy are made once per encoding; a request adds its Content-Security-Policy,
 * Server-Timing and form-token cookie, the page's own headers and Cache-Control
 * (docs/responses.md) and the request id. Setting the fifteen-odd headers one by
 * one, each validated by Node, costs about a tenth of a small answer's CPU (measured on the 404).
 */
export function createDocumentHeaders({ policy, compression }: DocumentHeadersOptions): DocumentHeaders {
  const security = securityHeaderDefaults();
  const vary = compression ? ([['Vary', 'Accept-Encoding']] as const) : [];
  function headFor(html: readonly HeaderPair[], encoding?: ContentEncoding): PreparedHead {
    return prepareHead([...html, ...vary, ...(encoding === undefined ? [] : [['Content-Encoding', encoding] as const]), ...security]);
  }
  const heads = { identity: headFor(HTML_HEADERS), br: headFor(HTML_HEADERS, 'br'), gzip: headFor(HTML_HEADERS, 'gzip') };
  // For the pages that give their own Cache-Control: the same heads without the default one.
  const uncached = HTML_HEADERS.filter(([name]) => name !== 'Cache-Control');
  const cacheable = { identity: headFor(uncached), br: headFor(uncached, 'br'), gzip: headFor(uncached, 'gzip') };
  return function documentHeaders(encoding, requestId, nonce, shellMs, setCookie, own) {
    const pairs: HeaderPair[] = [
      ['Content-Security-Policy', policy(nonce)],
      // Browser tools show the server's share of the wait (docs/observability.md).
      ['Server-Timing', `shell;desc="React shell";dur=${shellMs.toFixed(1)}`],
    ];
    const cacheControl = own?.cacheControl;
    if (cacheControl !== undefined) pairs.push(['Cache-Control', cacheControl], ['Vary', NAVIGATION_VARY]);
    if (own !== undefined) pairs.push(...own.headers);
    if (setCookie !== undefined) pairs.push(['Set-Cookie', setCookie]);
    return extendHead((cacheControl === undefined ? heads : cacheable)[encoding ?? 'identity'], pairs, requestId);
  };
}
