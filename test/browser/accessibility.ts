import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * axe-core's checks for WCAG 2.0 and 2.1, levels A and AA, and Deque's best practices
 * (docs/browser-tests.md, "Accessibility"). https://www.deque.com/axe/core-documentation/api-documentation/#axe-core-tags
 */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] as const;

/** A violation that is known, and whose fix belongs to code the browser tests do not own. */
export interface KnownViolation {
  /** The page it is found on: a CSS selector that matches on that page and no other. */
  readonly page: string;
  readonly rules: readonly string[];
  /** What is wrong, and where it is to be fixed. */
  readonly why: string;
}

/**
 * Each is set aside only on its own page; any other violation there still fails, and so does the
 * same rule anywhere else. Once a listed rule stops firing on its page the audit fails until its
 * entry goes, so no entry outlives its fix. Keep this list short, and in docs/browser-tests.md.
 */
export const KNOWN_VIOLATIONS: readonly KnownViolation[] = [];

/** Read once per test file; evaluated in a page only when that page is audited. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  readonly id: string;
  readonly impact: string;
  readonly help: string;
  readonly helpUrl: string;
  /** One CSS selector per offending element (frames and shadow roots joined by ` >> `). */
  readonly targets: readonly string[];
}

export interface Audit {
  readonly url: string;
  readonly scheme: 'light' | 'dark';
  readonly scripting: boolean;
  readonly violations: readonly Violation[];
  /** The entries of KNOWN_VIOLATIONS whose page this is. */
  readonly known: readonly KnownViolation[];
}

declare global {
  interface Window {
    /** Set by axe.min.js when an audit evaluates it in the page. */
    axe?: typeof axe;
  }
}

/**
 * Runs axe on the page as it is now. Its source goes in through `page.evaluate`, which Chromium
 * runs on DevTools' behalf, outside the page's Content-Security-Policy: no `<script>` tag, no
 * `bypassCSP`, so the policy every test checks stays the one the server sent. The page's own
 * scripts do see `window.axe` afterwards, which is why it is done last, when the test is done.
 *
 * `scripting: false` is for a context with `javaScriptEnabled: false`: there DevTools can still
 * evaluate, and promises settle, but no timer or queued task ever fires, and axe hands every
 * rule's result on with `setTimeout(…, 0)`. In such a page (no script of its own runs) timers
 * become promise callbacks, in order; the audit sees the document exactly as it was served.
 */
export async function auditPage(page: Page, { scripting }: { readonly scripting: boolean }): Promise<Audit> {
  // A trailing expression, so the evaluation returns nothing rather than the UMD wrapper's value.
  await page.evaluate(`${AXE_SOURCE}\n;undefined`);
  const audit = await page.evaluate(
    async ({ tags, scripting, knownPages }) => {
      const engine = window.axe;
      if (engine === undefined) throw new Error('axe-core did not load in the page');
      if (!scripting) {
        const asPromise = (callback: (...args: unknown[]) => void, _delay?: number, ...args: unknown[]): number => {
          void Promise.resolve().then(() => callback(...args));
          return 0;
        };
        Object.assign(window, { setTimeout: asPromise, clearTimeout: () => undefined });
      }
      // No preload: it fetches stylesheets and media by XHR first, for rules these tags leave
      // out (experimental) or that need <video>/<audio autoplay>, which no page has.
      const results = await engine.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], preload: false });
      return {
        url: location.href,
        scheme: matchMedia('(prefers-color-scheme: dark)').matches ? ('dark' as const) : ('light' as const),
        violations: results.violations.map((violation) => ({
          id: violation.id,
          impact: violation.impact ?? 'unknown',
          help: violation.help,
          helpUrl: violation.helpUrl,
          targets: violation.nodes.map((node) => node.target.map((part) => (typeof part === 'string' ? part : part.join(' >> '))).join(' >> ')),
        })),
        knownHere: knownPages.map((selector) => document.querySelector(selector) !== null),
      };
    },
    { tags: [...AXE_TAGS], scripting, knownPages: KNOWN_VIOLATIONS.map((entry) => entry.page) },
  );
  const { knownHere, ...rest } = audit;
  return { ...rest, scripting, known: KNOWN_VIOLATIONS.filter((_entry, index) => knownHere[index] === true) };
}

/**
 * What fails the test, as readable text, or undefined when nothing does: each violation not set
 * aside for this page (rule, impact, what it asks for, the elements, where to read more), then
 * each known violation that is gone.
 */
export function describeFailures(audit: Audit): string | undefined {
  const setAside = new Set(audit.known.flatMap((entry) => entry.rules));
  const found = new Set(audit.violations.map((violation) => violation.id));
  const violations = audit.violations.filter((violation) => !setAside.has(violation.id));
  const gone = audit.known.flatMap((entry) => entry.rules.filter((rule) => !found.has(rule)).map((rule) => ({ rule, entry })));
  if (violations.length === 0 && gone.length === 0) return undefined;

  const where = `${audit.url} (${audit.scheme} scheme${audit.scripting ? '' : ', JavaScript off'})`;
  const lines: string[] = [];
  if (violations.length > 0) lines.push(`axe-core found ${violations.length} accessibility violation${violations.length === 1 ? '' : 's'} on ${where}:`);
  for (const violation of violations) {
    lines.push(`  ${violation.id} (${violation.impact}): ${violation.help}`);
    for (const target of violation.targets) lines.push(`      at ${target}`);
    lines.push(`      see ${violation.helpUrl}`);
  }
  for (const { rule, entry } of gone) {
    lines.push(
      `known violation ${rule} is no longer found on ${where}, the page matching ${JSON.stringify(entry.page)}: delete it from KNOWN_VIOLATIONS in test/browser/accessibility.ts and from docs/browser-tests.md`,
    );
  }
  return lines.join('\n');
}

export class AccessibilityError extends Error {
  override readonly name = 'AccessibilityError';
  readonly audits: readonly Audit[];
  constructor(audits: readonly Audit[]) {
    super(
      audits
        .map(describeFailures)
        .filter((text) => text !== undefined)
        .join('\n'),
    );
    this.audits = audits;
  }
}
