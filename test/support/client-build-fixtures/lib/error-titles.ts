/** A module only a page's errorHead imports, with a statement that runs when it is imported. */
const TITLES = new Map<number, string>();
TITLES.set(404, 'BOUNDARY-TITLE-ONLY-MARKER');

export function errorTitleOf(status: number): string {
  return TITLES.get(status) ?? 'Failed';
}
