/**
 * Development only: `npm run dev` serves, beside the server-sent events at this URL, the dev
 * client (client/dev/dev-client.ts: Fast Refresh, the error overlay, reloads), which the page
 * imports with this inline script under the CSP nonce; the nonce lets it load from that port.
 */
export function liveReloadScript(url: URL): string {
  return `import(${JSON.stringify(new URL('/dev-client.js', url).href)});`;
}
