/**
 * Cache-Control across the levels of one answer (a page's layouts and the page, a page and its
 * action): the most restrictive wins, so no level can make shareable what another keeps private
 * (RFC 9111, section 5.2.2). `no-store` over `private` over `public`; the shortest of each
 * lifetime; a revalidation any level asks for; what only some levels allow (`immutable`, a
 * staleness allowance, a directive we do not know) only when every level that spoke allows it.
 */

/** Lifetimes: the shortest wins among the levels that give one. */
const SHORTEST = ['max-age', 's-maxage'];
/** Allowances: kept only when every level gives one, then the shortest. */
const ALLOWANCES = ['stale-while-revalidate', 'stale-if-error'];
/** Demands: any level's holds. */
const DEMANDS = ['no-store', 'no-cache', 'must-revalidate', 'proxy-revalidate', 'no-transform', 'must-understand'];

type Directives = ReadonlyMap<string, string | undefined>;

function parse(header: string): Directives {
  const directives = new Map<string, string | undefined>();
  for (const part of header.split(',')) {
    const [name = '', value] = part.split('=', 2).map((piece) => piece.trim());
    if (name !== '') directives.set(name.toLowerCase(), value?.replace(/^"|"$/g, ''));
  }
  return directives;
}

function seconds(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The Cache-Control of levels that each gave theirs (or none: `undefined` leaves it to the others); `undefined` when none did. */
export function strictestCacheControl(values: readonly (string | undefined)[]): string | undefined {
  const given = values.filter((value): value is string => value !== undefined);
  if (given.length <= 1) return given[0];
  const all = given.map(parse);
  const any = (name: string) => all.some((directives) => directives.has(name));
  const out: string[] = [];
  const personal = any('private') || any('no-store');
  if (personal) out.push('private');
  else if (any('public')) out.push('public');
  for (const name of DEMANDS) if (any(name)) out.push(name);
  for (const name of SHORTEST) {
    if (name === 's-maxage' && personal) continue;
    const lifetimes = all.map((directives) => seconds(directives.get(name))).filter((value) => value !== undefined);
    if (lifetimes.length > 0) out.push(`${name}=${Math.min(...lifetimes)}`);
  }
  for (const name of ALLOWANCES) {
    const allowed = all.map((directives) => seconds(directives.get(name)));
    if (allowed.every((value) => value !== undefined)) out.push(`${name}=${Math.min(...allowed)}`);
  }
  // What we do not know (immutable, a CDN's own) only when every level says it, as it says it.
  const known = new Set(['private', 'public', ...DEMANDS, ...SHORTEST, ...ALLOWANCES]);
  for (const [name, value] of all[0] ?? []) {
    if (known.has(name) || !all.every((directives) => directives.has(name) && directives.get(name) === value)) continue;
    out.push(value === undefined ? name : `${name}=${value}`);
  }
  return out.join(', ');
}

/**
 * The same answer for one visitor's eyes only: `public` becomes `private`, and what speaks to
 * shared caches alone (`s-maxage`, `proxy-revalidate`) goes. For an answer made from a session.
 */
export function privateCacheControl(header: string): string {
  const out = ['private'];
  for (const [name, value] of parse(header)) {
    if (name === 'public' || name === 'private' || name === 's-maxage' || name === 'proxy-revalidate') continue;
    out.push(value === undefined ? name : `${name}=${value}`);
  }
  return out.join(', ');
}

/** Every level's `Vary`, each name once (case-insensitive); `*` alone when any level varies on everything. */
export function mergedVary(values: readonly string[]): string | undefined {
  const names = new Map<string, string>();
  for (const value of values) {
    for (const part of value.split(',')) {
      const name = part.trim();
      if (name === '*') return '*';
      if (name !== '' && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
    }
  }
  return names.size === 0 ? undefined : [...names.values()].join(', ');
}
