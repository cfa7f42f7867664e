/** Stands for server-only code a page's `load` imports (a database client, a secret). */
export function serverOnlySecret(): string {
  return 'SERVER-ONLY-MARKER';
}
