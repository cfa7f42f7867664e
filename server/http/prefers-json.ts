import type { Request } from 'express';

/** How exactly an `Accept` range names a type: `type/subtype` over `type/*` over `*\/*`. */
type Specificity = 0 | 1 | 2;

function specificityFor(range: string, type: string, subtype: string): Specificity | undefined {
  if (range === `${type}/${subtype}`) return 2;
  if (range === `${type}/*`) return 1;
  return range === '*/*' ? 0 : undefined;
}

/** The quality a type has so far, and how exactly the range that gave it names the type. */
interface Quality {
  readonly specificity: Specificity;
  readonly quality: number;
}

/** A range's quality for a type, when the range names it more exactly than the one `best` came from. */
function better(best: Quality | undefined, specificity: Specificity | undefined, quality: number): Quality | undefined {
  if (specificity === undefined || (best !== undefined && best.specificity >= specificity)) return best;
  return { specificity, quality };
}

/**
 * The qualities `accept` gives JSON and HTML, read in one pass: each type's is that of the most
 * specific range naming it (RFC 9110 §12.5.1), 0 when none does. A range with parameters other
 * than `q` names only types with those parameters, so neither of these.
 */
function qualities(accept: string): { readonly json: number; readonly html: number } {
  let json: Quality | undefined;
  let html: Quality | undefined;
  for (const part of accept.split(',')) {
    const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (parameters.some((parameter) => !parameter.startsWith('q='))) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    json = better(json, specificityFor(range, 'application', 'json'), quality);
    html = better(html, specificityFor(range, 'text', 'html'), quality);
  }
  return { json: json?.quality ?? 0, html: html?.quality ?? 0 };
}

/**
 * Whether the client prefers JSON to HTML (docs/status-pages.md#json-answers): a status answer is
 * then JSON, and so is a page's failure that a route's `ErrorBoundary` would show in HTML.
 * Preference is quality alone, so HTML wins ties whatever the order of the list: `req.accepts`
 * would pick the type the client lists first, which RFC 9110 gives no meaning.
 */
export function prefersJson(req: Request): boolean {
  // Most requests never mention JSON: skip parsing their Accept header.
  const accept = req.headers.accept;
  if (accept === undefined || (!accept.includes('json') && !accept.includes('application/*'))) return false;
  const { json, html } = qualities(accept);
  return json > html;
}
