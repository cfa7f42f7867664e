/**
 * Development only: `npm run dev` serves server-sent events at this URL and sends `reload`
 * after each rebuild; the page listens with this inline script (under the CSP nonce).
 */
export function liveReloadScript(url: URL): string {
  return `new EventSource(${JSON.stringify(url.href)}).addEventListener("reload",function(){location.reload()});`;
}
