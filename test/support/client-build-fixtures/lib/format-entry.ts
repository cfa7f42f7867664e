/** Used by a page's component and by its load alike: it stays in the browser bundle. */
export function formatEntry(text: string): string {
  return `FORMAT-ENTRY-MARKER ${text}`;
}
