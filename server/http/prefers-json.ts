import type { Request } from 'express';

/** How exactly an `Accept` range names a type: `type/subtype` over `type/*` over `*\/*`. */
type Specificity = 0 | 1 | 2;

function specificityFor(range: string, type: string, subtype: string): Specificity | undefined {
  if (range === `${type}/${subtype}`) return 2;
  if (range === `${type}/*`) return 1;
  return range === '*/*' ? 0 : undefined;
}

/**
 * The quality `accept` gives a parameterless type: that of the most specific range naming it
 * (RFC 9110 §12.5.1), 0 when none does. A range with parameters other than `q` names only types
 * with those parameters, so not this one.
 */
function qualityOf(accept: string, type: string, subtype: string): number {
  let best: { specificity: Specificity; quality: number } | undefined;
  for (const part of accept.split(',')) {
    const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const specificity = specificityFor(range, type, subtype);
    if (specificity === undefined || (best !== undefined && best.specificity >= specificity)) continue;
    const others = parameters.filter((parameter) => !parameter.startsWith('q='));
    if (others.length > 0) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    best = { specificity, quality: q === undefined ? 1 : Number(q.slice(2)) };
  }
  return best?.quality ?? 0;
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
  return qualityOf(accept, 'application', 'json') > qualityOf(accept, 'text', 'html');
}
