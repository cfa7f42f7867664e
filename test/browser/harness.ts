import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { startServerEntry, type ServerProcess } from '../support/server-process.ts';
import { CHROMIUM_FLAGS, chromiumPath } from '../support/system-components.ts';
import { AccessibilityError, auditPage, describeFailures, type Audit } from './accessibility.ts';
import { FIXTURE_OUT } from './global-setup.ts';

import { DESKTOP_CHROME } from '../support/http-client.ts';

export { DESKTOP_CHROME };

export type { Exit } from '../support/server-process.ts';
export type FixtureServer = ServerProcess;

/** Starts the built browser fixture server (production mode) on a free port. */
export function startFixtureServer(env: Record<string, string> = {}): Promise<FixtureServer> {
  return startServerEntry(join(FIXTURE_OUT, 'server', 'fixture-server.js'), env);
}

export interface BrowserSession {
  readonly browser: Browser;
  close(): Promise<void>;
}

/**
 * The machine's Chromium (Debian's, or CHROMIUM_PATH), headless, with nothing that reaches out
 * to the network on its own. The tests never download a browser.
 */
export async function launchChromium(): Promise<BrowserSession> {
  const browser = await launchWithOneRetry();
  // Each context it makes runs axe on its pages when it closes (auditedOnClose, below).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => auditedOnClose(await newContext(options), options?.javaScriptEnabled !== false);
  return {
    browser,
    close: () => browser.close(),
  };
}

/**
 * Playwright's launch() gives every browser a fresh, temporary user-data dir of its own. On a
 * busy machine (CI runs the process project beside this one, on two cores) Chromium has been seen
 * to hang before it opens its DevTools pipe, and Playwright then kills it at the timeout. A
 * second start, in a new profile, is what a person would do; it is said on stderr, so a machine
 * where it keeps happening is seen. The tests' assertions never retry.
 */
async function launchWithOneRetry(): Promise<Browser> {
  const options = { executablePath: chromiumPath(), headless: true, timeout: LAUNCH_TIMEOUT_MS, args: [...CHROMIUM_FLAGS] };
  try {
    return await chromium.launch(options);
  } catch (error) {
    if (!(error instanceof Error && error.name === 'TimeoutError')) throw error;
    process.stderr.write(`Chromium did not start within ${LAUNCH_TIMEOUT_MS} ms; starting it once more\n`);
    return await chromium.launch(options);
  }
}

/** Two starts fit in the browser project's hook timeout (120 s, vitest.config.ts). */
const LAUNCH_TIMEOUT_MS = 50_000;

/**
 * Every context made with `browser.newContext()` (and so `browser.newPage()`) of a browser from
 * launchChromium() runs axe-core on each of its pages that shows an http(s) document when it is
 * closed, before it closes; a violation fails the test (test/browser/accessibility.ts,
 * docs/browser-tests.md, "Accessibility"). So every page a test opens is audited as the test
 * leaves it: hydrated, streamed in, or showing its error. The context closes either way.
 */
function auditedOnClose(context: BrowserContext, scripting: boolean): BrowserContext {
  const close = context.close.bind(context);
  let closing = false;
  context.close = async (options) => {
    closing = true;
    try {
      const audits: Audit[] = [];
      for (const page of context.pages()) {
        if (!page.isClosed() && /^https?:/.test(page.url())) audits.push(await auditPage(page, { scripting }));
      }
      if (audits.some((audit) => describeFailures(audit) !== undefined)) throw new AccessibilityError(audits);
    } finally {
      await close(options);
    }
  };
  // A context the test leaves open is audited and closed when the test ends, if it passed; if it
  // failed, it already said why, and the context only closes.
  try {
    onTestFinished(async ({ task }) => {
      if (closing) return;
      if (task.result?.state === 'fail') await close().catch(() => undefined);
      else await context.close();
    });
  } catch (error) {
    // Made outside a test (in beforeAll): it is audited when the file closes it.
    if (!(error instanceof Error && error.message.includes('can only be called inside a test'))) throw error;
  }
  return context;
}

export interface WatchedPage {
  readonly page: Page;
  /** Console errors and warnings, page errors and CSP violations, as text. */
  readonly problems: string[];
  /** URLs of every script the page requested. */
  readonly scripts: string[];
  /** URLs of every document the page navigated to. */
  readonly documents: string[];
}

/** A page that records every console problem, CSP violation, script and document request. */
export async function watchedPage(context: BrowserContext): Promise<WatchedPage> {
  const page = await context.newPage();
  const problems: string[] = [];
  const scripts: string[] = [];
  const documents: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    // Chrome names the failed resource only in the message's location.
    const source = message.text().startsWith('Failed to load resource') ? ` <${message.location().url}>` : '';
    problems.push(`${message.type()}: ${message.text()}${source}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
    if (request.resourceType() === 'document') documents.push(request.url());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return { page, problems, scripts, documents };
}

/**
 * The problems left once Chrome's note about the document's own 4xx/5xx status is set aside:
 * a status page is meant to have one. A failed favicon, script or style still counts.
 */
export function withoutDocumentStatus({ problems, documents }: Pick<WatchedPage, 'problems' | 'documents'>): string[] {
  return problems.filter((text) => {
    const failed = /^error: Failed to load resource: the server responded with a status of [45]\d\d .* <(.*)>$/.exec(text);
    return failed === null || !documents.includes(failed[1] ?? '');
  });
}

/** A fixture page in a fresh desktop context, once it has hydrated; close `page.context()` when done. */
export async function openHydrated(session: FixtureSession, path: string): Promise<Page> {
  const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
  const page = await context.newPage();
  await page.goto(`${session.server.origin}${path}`);
  await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
  return page;
}

export interface FixtureSession {
  readonly server: FixtureServer;
  readonly chromium: BrowserSession;
}

/**
 * What most browser test files share: one fixture server (with `env`) and one Chromium for the
 * whole file, started before its first test and stopped after its last.
 */
export function fixtureSession(env: Record<string, string> = {}): FixtureSession {
  let server: FixtureServer | undefined;
  let browser: BrowserSession | undefined;
  beforeAll(async () => {
    server = await startFixtureServer(env);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('the fixture server starts in beforeAll');
      return server;
    },
    get chromium() {
      if (browser === undefined) throw new Error('Chromium starts in beforeAll');
      return browser;
    },
  };
}
