import { STATUS_VIEW_CSS } from '../../shared/views/status-view.tsx';
import { HTML_HEADERS } from '../http/html-headers.ts';
import { prepareHead, type PreparedHead } from '../http/response-head.ts';
import { createStatusPagePolicy, styleHashSource } from '../security/content-security-policy.ts';
import { securityHeaderDefaults } from '../security/security-headers.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The hosting provider's analytics scripts (server/render/analytics.ts): URLs and the origins they need. */
export interface StatusPageAnalytics {
  readonly sources: readonly string[];
  readonly origins: readonly string[];
}

/**
 * A whole status answer but for the request's own headers (`X-Request-Id`, `Allow`, ...): its
 * head holds helmet's headers and Permissions-Policy too (server/http/response-head.ts).
 */
export interface PreparedAnswer {
  readonly head: PreparedHead;
  readonly body: Buffer;
}

export interface StatusPageHeads {
  /** The Content-Security-Policy of HTML status pages; `nonce` is used only with analytics. */
  policy(nonce: string): string;
  /** `text` (HTML, or JSON when `json`) as bytes, with every header a status answer carries. */
  prepare(text: string, json: boolean, nonce: string): PreparedAnswer;
}

/**
 * The headers of status answers. The pages' one inline style (StatusDocument inlines
 * STATUS_VIEW_CSS verbatim, the 500 page included) is allowed by its hash (docs/security.md), so
 * no nonce is needed, except on pages that carry analytics scripts. `byLanguage`: the app words
 * its pages in more than one language; `ownLook`: its own view replaces the framework's.
 */
export function createStatusPageHeads(
  analytics: StatusPageAnalytics,
  { byLanguage = false, ownLook = false }: { readonly byLanguage?: boolean; readonly ownLook?: boolean } = {},
): StatusPageHeads {
  // The app's own view leaves the inline style out: its policy allows none (a linked stylesheet is 'self').
  const styleHashes = ownLook ? [] : [styleHashSource(STATUS_VIEW_CSS)];
  // The body depends on Accept (JSON or HTML), and on Accept-Language when the app words it in more than one language.
  const vary = byLanguage ? 'Accept, Accept-Language' : 'Accept';
  const withAnalytics = analytics.sources.length > 0;
  const policy = createStatusPagePolicy({
    styleHashes,
    analytics: withAnalytics ? { scriptSources: analytics.origins, connectSources: analytics.origins } : undefined,
  });
  // A JSON body runs no script, so its policy never needs the nonce: the fixed one.
  const fixedPolicy = createStatusPagePolicy({ styleHashes })('');
  const htmlType = HTML_HEADERS.find(([name]) => name === 'Content-Type') ?? (['Content-Type', 'text/html; charset=utf-8'] as const);
  const otherHtmlHeaders = HTML_HEADERS.filter((header) => header !== htmlType);
  const security = securityHeaderDefaults();

  return {
    policy,
    prepare(text, json, nonce) {
      const body = Buffer.from(text);
      const head = prepareHead([
        json ? ['Content-Type', JSON_TYPE] : htmlType,
        ...otherHtmlHeaders,
        ['Vary', vary],
        ['Content-Length', String(body.length)],
        ...security,
        ['Content-Security-Policy', json ? fixedPolicy : policy(nonce)],
      ]);
      return { head, body };
    },
  };
}
