import { createHash } from 'node:crypto';
import helmet from 'helmet';

/** Stands where the nonce goes; base64 never contains it. */
const NONCE = '\u0000nonce\u0000';

/**
 * The app's own sources (`defineApp({ contentSecurityPolicy })`, docs/security.md): each
 * directive's list is added to the framework's own, which already allows the site itself. Hosts
 * and schemes only (`https://cdn.example.com`, `https:`): keywords, nonces and hashes stay the
 * framework's, so no source can loosen scripts to `'unsafe-inline'`.
 */
export interface PolicySources {
  /** Images: a CDN, an avatar service. */
  readonly imgSrc?: readonly string[];
  /** `fetch`, beacons, EventSource and WebSockets: an API's origin. */
  readonly connectSrc?: readonly string[];
  /** Fonts: a font service. */
  readonly fontSrc?: readonly string[];
  /** Frames the page embeds: a video, a payment form. */
  readonly frameSrc?: readonly string[];
  /** Where forms may post: a payment provider. */
  readonly formAction?: readonly string[];
  /** Audio and video. */
  readonly mediaSrc?: readonly string[];
  /** Stylesheets from another origin. */
  readonly styleSrc?: readonly string[];
  /** Scripts a page loads from another origin besides its own nonce'd ones (`'strict-dynamic'` still decides what runs). */
  readonly scriptSrc?: readonly string[];
}

/** Each option of PolicySources and the directive it adds to. */
const POLICY_DIRECTIVES = [
  ['imgSrc', 'img-src'],
  ['connectSrc', 'connect-src'],
  ['fontSrc', 'font-src'],
  ['frameSrc', 'frame-src'],
  ['formAction', 'form-action'],
  ['mediaSrc', 'media-src'],
  ['styleSrc', 'style-src'],
  ['scriptSrc', 'script-src'],
] as const satisfies readonly (readonly [keyof PolicySources, string])[];

/** An app's source that cannot stand in its directive: names the option, the source and what it must be. */
export class PolicySourceError extends TypeError {
  override readonly name = 'PolicySourceError';
  readonly setting: string;
  readonly value: string;
  readonly expected: string;

  constructor(setting: string, value: string, expected: string) {
    super(`${setting}: ${JSON.stringify(value)} is not allowed: expected ${expected}`);
    this.setting = setting;
    this.value = value;
    this.expected = expected;
  }
}

/**
 * The app's sources, checked at once: one that is not a single host or scheme source (a `;`
 * would start a directive, a quote a keyword) stops the app from being built, naming the option.
 */
export function checkPolicySources(sources: PolicySources | undefined): PolicySources {
  if (sources === undefined) return {};
  for (const [option, list] of Object.entries(sources)) {
    const setting = `contentSecurityPolicy.${option}`;
    if (!POLICY_DIRECTIVES.some(([name]) => name === option)) throw new PolicySourceError(setting, option, `one of ${POLICY_DIRECTIVES.map(([name]) => name).join(', ')}`);
    if (!Array.isArray(list)) throw new PolicySourceError(setting, String(list), 'a list of sources');
    for (const source of list) {
      if (typeof source !== 'string' || !isPolicySource(source)) throw new PolicySourceError(setting, String(source), 'a host or scheme source, such as https://cdn.example.com');
    }
  }
  return sources;
}

export interface ContentSecurityPolicyOptions {
  /** The app's own sources, added to each directive (checkPolicySources). */
  readonly app?: PolicySources | undefined;
  /** Script URLs or origins allowed besides nonce-bearing scripts (e.g. analytics). */
  readonly scriptSources?: readonly string[];
  /** Origins `fetch`, beacons and EventSource may reach besides our own. */
  readonly connectSources?: readonly string[];
  /** `sha256-…` of each stylesheet a page carries inline (client-assets.ts): allowed by hash, never by `'unsafe-inline'`. */
  readonly styleHashes?: readonly string[];
}

export type ContentSecurityPolicy = (nonce: string) => string;

/** `sha256-…` of an inline `<style>`'s text, as the browser hashes it: the source that allows it. */
export function styleHashSource(css: string): string {
  return `sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}`;
}

/**
 * The policy of an answer that is no page: a plain-text refusal, a built file. Should one be
 * opened as a document (an SVG, a source map), it may load and run nothing.
 */
export const NOTHING_TO_LOAD = "default-src 'none'; frame-ancestors 'self'";

/**
 * A source the header can carry as exactly one source: CSP3's scheme-source (`https:`) or
 * host-source (`https://cdn.example.com:8443/path`, `*.example.com`), ASCII letters, digits and
 * `-` in host labels. `;` would start a directive, `,` a second policy, a quote a keyword such
 * as 'unsafe-inline', whitespace another source; none of them can appear. Keywords are the
 * builder's own business, never a caller's. https://www.w3.org/TR/CSP3/#grammardef-serialized-source-list
 */
const SCHEME = '[a-z][a-z0-9+.-]*';
const HOST = String.raw`(?:\*|(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*)`;
const PATH = String.raw`(?:/[A-Za-z0-9\-._~!$&()*+=:@%/]*)?`;
const POLICY_SOURCE = new RegExp(String.raw`^(?:${SCHEME}:|(?:${SCHEME}://)?${HOST}(?::(?:\d{1,5}|\*))?${PATH})$`, 'i');

/** True when `source` can stand in a source list as one source and nothing else. */
export function isPolicySource(source: string): boolean {
  return POLICY_SOURCE.test(source);
}

function checkedSources(directive: string, sources: readonly string[] = []): readonly string[] {
  for (const source of sources) {
    if (!isPolicySource(source)) {
      throw new TypeError(`Content-Security-Policy: ${JSON.stringify(source)} is not a host or scheme source ${directive} can hold safely`);
    }
  }
  return sources;
}

/** Directives as written once, with NONCE where a request's nonce goes: a request only joins. */
function compile(directives: Readonly<Record<string, readonly string[]>>): ContentSecurityPolicy {
  const policy = Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join(';');
  const parts = policy.split(NONCE);
  // Stryker disable next-line BlockStatement,ConditionalExpression: equivalent; a policy without the nonce is one part, which the join below gives back unchanged: this only skips the join
  if (parts.length === 1) {
    return function fixedContentSecurityPolicy(): string {
      return policy;
    };
  }
  return function contentSecurityPolicy(nonce: string): string {
    return parts.join(nonce);
  };
}

/** helmet's defaults with fonts only from our origin (a page's fonts are built files under /assets/: docs/styles.md). */
function baseDirectives(): Record<string, readonly string[]> {
  return { ...helmet.contentSecurityPolicy.getDefaultDirectives(), 'font-src': ["'self'"] };
}

/**
 * helmet's default policy, with scripts allowed only by the per-request nonce and
 * `'strict-dynamic'` (so modules those scripts import load too), styles only from our origin
 * (the build's stylesheets under `/assets/`; a page has no inline style, so none is allowed),
 * and fonts only from our origin (the build's, under `/assets/`). The header string is built
 * once; a request only splices its nonce in. Sources given here are checked first: one that
 * could change the policy's meaning stops the app from being built (docs/security.md).
 * https://www.w3.org/TR/CSP3/#strict-dynamic-usage
 */
export function createContentSecurityPolicy(options: ContentSecurityPolicyOptions = {}): ContentSecurityPolicy {
  const directives: Record<string, readonly string[]> = {
    ...baseDirectives(),
    'script-src': [`'nonce-${NONCE}'`, "'strict-dynamic'", ...checkedSources('script-src', options.scriptSources)],
    'style-src': ["'self'", ...hashSources(options.styleHashes)],
    'connect-src': ["'self'", ...checkedSources('connect-src', options.connectSources)],
  };
  const app = checkPolicySources(options.app);
  for (const [option, directive] of POLICY_DIRECTIVES) {
    const sources = app[option];
    if (sources === undefined || sources.length === 0) continue;
    // A directive the defaults leave to default-src starts from what default-src allows: the site.
    // Stryker disable next-line StringLiteral,ArrayDeclaration: equivalent; helmet's defaults always hold default-src, and it is 'self', the last fallback's own value
    const own = directives[directive] ?? directives['default-src'] ?? ["'self'"];
    directives[directive] = [...new Set([...own, ...sources])];
  }
  return compile(directives);
}

export interface StatusPagePolicyOptions {
  /** `sha256-…` of each inline `<style>` of the status pages: styles are allowed by hash, not by nonce. */
  readonly styleHashes: readonly string[];
  /**
   * Script sources of the hosting provider's analytics (docs/observability.md), when they are on.
   * They are the only scripts a status page carries, so only then does its policy need the
   * request's nonce; without them the policy allows no script at all and is the same string
   * for every answer.
   */
  readonly analytics?: { readonly scriptSources: readonly string[]; readonly connectSources: readonly string[] } | undefined;
}

/** CSP3 hash-source: `'sha256-` base64 `'`. */
const STYLE_HASH = /^sha256-[A-Za-z0-9+/]+={0,2}$/;

/**
 * The hashes as sources of `style-src`, each checked and each once: pages whose stylesheets hold
 * the same text share a hash, and every page's policy names the hashes of all pages (an in-place
 * navigation brings the next page's style into this document).
 */
function hashSources(hashes: readonly string[] = []): string[] {
  for (const hash of hashes) {
    if (!STYLE_HASH.test(hash)) throw new TypeError(`Content-Security-Policy: ${JSON.stringify(hash)} is not a sha256 hash source`);
  }
  return [...new Set(hashes)].map((hash) => `'${hash}'`);
}

/**
 * The policy of status answers (pages and their JSON forms, docs/security.md): the page policy
 * with the inline style allowed by its hash instead of a nonce, and no script at all
 * (`script-src 'none'`) unless analytics scripts are on, which keep the page's nonce and
 * `'strict-dynamic'` rules. Without analytics it is one fixed string, built once.
 */
export function createStatusPagePolicy({ styleHashes, analytics }: StatusPagePolicyOptions): ContentSecurityPolicy {
  return compile({
    ...baseDirectives(),
    'script-src': analytics === undefined ? ["'none'"] : [`'nonce-${NONCE}'`, "'strict-dynamic'", ...checkedSources('script-src', analytics.scriptSources)],
    'style-src': ["'self'", ...hashSources(styleHashes)],
    'connect-src': ["'self'", ...checkedSources('connect-src', analytics?.connectSources)],
  });
}
