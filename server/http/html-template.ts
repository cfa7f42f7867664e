/**
 * Precompiled HTML with named holes: split once, joined per request. Values go in verbatim,
 * so callers escape what is not already safe for HTML.
 */
export type HtmlTemplate<Key extends string> = (values: Readonly<Record<Key, string>>) => string;

export function compileTemplate<Key extends string>(html: string, placeholders: ReadonlyArray<readonly [Key, string]>): HtmlTemplate<Key> {
  const byMarker = new Map<string, Key>(placeholders.map(([key, marker]) => [marker, key]));
  const pattern = new RegExp([...byMarker.keys()].join('|'), 'g');
  const literals: string[] = [];
  const holes: Key[] = [];
  let last = 0;
  for (const match of html.matchAll(pattern)) {
    literals.push(html.slice(last, match.index));
    const key = byMarker.get(match[0]);
    if (key !== undefined) holes.push(key);
    last = match.index + match[0].length;
  }
  literals.push(html.slice(last));

  return function fillTemplate(values) {
    let out = literals[0] ?? '';
    for (let i = 0; i < holes.length; i += 1) {
      const key = holes[i];
      if (key !== undefined) out += values[key] + (literals[i + 1] ?? '');
    }
    return out;
  };
}
