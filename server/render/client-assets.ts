import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Public URL prefix of built client files (docs/rendering.md). */
export const ASSETS_PATH = '/assets/';

/** What one page needs in the browser: its entry module, the chunks it imports, and its stylesheets (docs/styles.md). */
export interface PageAssets {
  readonly script: string;
  readonly preloads: readonly string[];
  /** The CSS its module imports, with the framework's own rules, built into one file: linked from the head. */
  readonly styles: readonly string[];
}

export interface ClientAssets {
  /** Folder holding the built files served under `/assets/` (the `assets/` beside the manifest). */
  readonly dir: string;
  /** What each hydrating route loads, by its path pattern. */
  readonly routes: ReadonlyMap<string, PageAssets>;
  /**
   * The text of each stylesheet small enough to travel inside the document (docs/styles.md), by
   * its URL: a page loaded in full carries it in a `<style>`, allowed by its hash, rather than
   * waiting a round trip for it; an in-place navigation still loads the file.
   */
  readonly inlineStyles: ReadonlyMap<string, string>;
}

/**
 * Stylesheets up to this size are written into the document, as Astro does by default: below a
 * few kilobytes, the round trip a render-blocking request costs a phone's first paint (about
 * 100 ms under Lighthouse's mobile throttling) outweighs the bytes it saves on the next page.
 */
export const INLINE_STYLESHEET_MAX_BYTES = 4096;

/** The manifest `scripts/build.ts` writes beside the client files: each hydrating route's code. */
export interface ClientManifest {
  readonly routes: Readonly<Record<string, PageAssets>>;
}

export const MANIFEST_FILE = 'manifest.json';

function isUrlList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((url) => typeof url === 'string');
}

function isPageCode(value: unknown): value is Omit<PageAssets, 'styles'> {
  if (typeof value !== 'object' || value === null) return false;
  if (!('script' in value) || !('preloads' in value)) return false;
  return typeof value.script === 'string' && isUrlList(value.preloads);
}

/**
 * The stylesheets to inline: at most `maxBytes`, and never one whose text could close its
 * `<style>` element early.
 */
function readInlineStyles(dir: string, urls: Iterable<string>, maxBytes: number): Map<string, string> {
  const inline = new Map<string, string>();
  for (const url of urls) {
    if (inline.has(url) || !url.startsWith(ASSETS_PATH)) continue;
    const css = readFileSync(join(dir, 'assets', url.slice(ASSETS_PATH.length)), 'utf8');
    if (Buffer.byteLength(css) <= maxBytes && !/<\/style/i.test(css)) inline.set(url, css);
  }
  return inline;
}

/**
 * Reads the build manifest once, at start, and the stylesheets to inline. A missing or broken
 * manifest stops the start.
 */
export function loadClientAssets(dir: string, { inlineStylesheetMaxBytes = INLINE_STYLESHEET_MAX_BYTES }: { readonly inlineStylesheetMaxBytes?: number } = {}): ClientAssets {
  const file = join(dir, MANIFEST_FILE);
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || !('routes' in parsed) || typeof parsed.routes !== 'object' || parsed.routes === null) {
    throw new Error(`${file} is not a client manifest (run npm run build)`);
  }
  const routes = new Map<string, PageAssets>();
  for (const [path, entry] of Object.entries(parsed.routes)) {
    if (!isPageCode(entry)) throw new Error(`${file}: route "${path}" has no script`);
    // A build from before pages had stylesheets: its pages would show without their look.
    const styles: unknown = Reflect.get(entry, 'styles');
    if (!isUrlList(styles)) throw new Error(`${file}: route "${path}" has no list of stylesheets (an older build's manifest: run npm run build)`);
    routes.set(path, { script: entry.script, preloads: entry.preloads, styles });
  }
  const inlineStyles = readInlineStyles(
    dir,
    [...routes.values()].flatMap((page) => page.styles),
    inlineStylesheetMaxBytes,
  );
  return { dir: join(dir, 'assets'), routes, inlineStyles };
}

/**
 * The inline script that starts a page's code (docs/rendering.md, "Client code"): once the
 * first frame is on screen (or after 100 ms, for a tab in the background), it adds the page's
 * chunks as modulepreloads and its entry as a module script, under the nonce of the script
 * itself. The first paint never waits for the bundle to download or run: a phone's first
 * contentful paint is the shell's, and hydration follows a frame later. The route table's
 * module is not among them: the navigation runtime fetches it with its own code, at the first
 * sign a link or a form is about to be used (client/router.tsx). The URLs are the build's own
 * (`/assets/name-HASH.js`), written as JSON string literals.
 */
export function bootstrapScript({ script, preloads }: Pick<PageAssets, 'script' | 'preloads'>): string {
  return (
    '(function(s,p,n){var d=document,g=0;function go(){if(g)return;g=1;setTimeout(function(){' +
    'p.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.href=h;l.nonce=n;d.head.appendChild(l)});' +
    'var e=d.createElement("script");e.type="module";e.src=s;e.nonce=n;d.head.appendChild(e)},0)}' +
    `requestAnimationFrame(go);setTimeout(go,100)})(${JSON.stringify(script)},${JSON.stringify(preloads)},document.currentScript.nonce)`
  );
}
