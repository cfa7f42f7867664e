/**
 * JSON that is safe inside `<script type="application/json">`: `<`, `>` and `&` become
 * unicode escapes so no value can close the element (`</script>`) or open a comment
 * (`<!--`) that changes how the parser reads the rest; U+2028/U+2029 are escaped too, for
 * readers that treat the text as JavaScript. JSON.parse restores every value exactly.
 * https://html.spec.whatwg.org/multipage/scripting.html#restrictions-for-contents-of-script-elements
 */
const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function serializeForScript(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(UNSAFE, (char) => ESCAPES[char] ?? char);
}
