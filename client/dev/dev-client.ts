import type { BuildProblem, HotUpdate } from './dev-events.ts';
import { hideOverlay, showOverlay } from './error-overlay.ts';

/**
 * Development only: what `react-stream-shell dev` tells an open page, through server-sent events
 * from its side server, which also serves this module (the page imports it under its nonce,
 * server/render/live-reload.ts). A component's edit is applied in place (Fast Refresh, through
 * the registry of the page's bundle, client/dev/hot-registry.ts); a stylesheet's is swapped; a
 * build error shows in an overlay until the build passes; any other edit reloads the page.
 */
const events = new EventSource(new URL('/events', import.meta.url));
// Said on the console, as other dev servers do: a page that never says it has no overlay and no
// refresh, and the developer (or a test) can tell that from a page that is merely quiet.
events.addEventListener('open', () => console.info('[react-stream-shell] connected to the dev command'));

function reportRefusal(update: number, reason: string): void {
  // A simple request (text/plain): no preflight to the side server.
  void fetch(new URL('/refused', import.meta.url), { method: 'POST', body: JSON.stringify({ update, reason }), keepalive: true }).catch(() => undefined);
}

events.addEventListener('reload', () => location.reload());

/** An update this page refused: it reloads once the server that has the edit listens (or soon, whatever). */
let reloadAfterRestart = false;
events.addEventListener('restarted', () => {
  if (reloadAfterRestart) location.reload();
});

events.addEventListener('hot', (event) => {
  const update: HotUpdate = JSON.parse(event.data);
  const registry = globalThis.__reactStreamShellHot;
  const held = update.modules.filter((module) => registry?.holds(module.path) === true);
  if (registry === undefined || held.length === 0) return;
  // A render error of the new code shows again as it renders.
  hideOverlay('render');
  registry.apply(held.map((module) => module.url)).catch((error: unknown) => {
    reportRefusal(update.id, error instanceof Error ? error.message : String(error));
    reloadAfterRestart = true;
    setTimeout(() => location.reload(), 10_000);
  });
});

events.addEventListener('css', (event) => {
  const swaps: readonly (readonly [string, string])[] = JSON.parse(event.data);
  // A page's stylesheet is linked, or inlined when small (its URL then in data-href).
  for (const sheet of document.querySelectorAll<HTMLLinkElement | HTMLStyleElement>('link[rel="stylesheet"], style[data-href]')) {
    const href = sheet instanceof HTMLLinkElement ? sheet.getAttribute('href') : sheet.dataset.href;
    const next = swaps.find(([before]) => href === before)?.[1];
    if (next === undefined) continue;
    // The new sheet beside the old until it has loaded: no moment without either.
    const fresh = document.createElement('link');
    fresh.rel = 'stylesheet';
    fresh.href = next;
    fresh.addEventListener('load', () => sheet.remove(), { once: true });
    sheet.after(fresh);
  }
});

events.addEventListener('build-error', (event) => {
  const problems: readonly BuildProblem[] = JSON.parse(event.data);
  showOverlay('build', 'The build failed', problems);
});
events.addEventListener('build-ok', () => hideOverlay('build'));

/** A render error: React reports one a boundary caught on the console, one none caught on the window. */
function showRenderError(error: unknown): void {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const stack = error instanceof Error && error.stack !== undefined ? error.stack : '';
  showOverlay('render', 'A component failed to render', [{ text: message, frame: stack }]);
}
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  consoleError(...args);
  const error = args.find((arg) => arg instanceof Error);
  if (error !== undefined) showRenderError(error);
};
addEventListener('error', (event) => showRenderError(event.error ?? event.message));
