import { afterEach, describe, expect, test, vi } from 'vitest';
import { arrive } from '../../../client/router/arrival.ts';
import { announce } from '../../../client/router/announcer.ts';
import { setHead } from '../../../client/router/document-head.ts';
import { postsInPlace } from '../../../client/router/form-post.ts';
import { keptScroll, saveScroll } from '../../../client/router/history-entry.ts';
import { isMeta, lines, routeModulesOf, statusView, withKeptLayouts } from '../../../client/router/page-answer.ts';
import { applyStyles, loadStyles } from '../../../client/router/styles.ts';
import type { View } from '../../../client/view.ts';
import { statusMessage } from '../../../shared/wording/status-messages.ts';

/**
 * The router's parts that read or change the document (client/router/): what a form posts in
 * place, what a history entry keeps, the head, stylesheets and where a shown view scrolls and
 * focuses, each against a small stand-in document that records what was done to it.
 */

/** Runs what a stand-in element's browser would on its load or failure. */
function settleLink(link: unknown, event: 'onload' | 'onerror'): void {
  const handler: unknown = link === undefined ? undefined : Reflect.get(Object(link), event);
  if (typeof handler !== 'function') throw new Error(`no ${event}`);
  handler();
}

afterEach(() => {
  vi.unstubAllGlobals();
});

interface FakeElement {
  readonly tag: string;
  readonly attributes: Map<string, string>;
  textContent: string;
  media?: string;
  removed: boolean;
  focused: unknown;
  scrolledIntoView: boolean;
  [field: string]: unknown;
}

function element(tag: string, attributes: Record<string, string> = {}): FakeElement {
  const made: FakeElement = {
    tag,
    attributes: new Map(Object.entries(attributes)),
    textContent: '',
    removed: false,
    focused: undefined,
    scrolledIntoView: false,
    setAttribute(name: string, value: string) {
      made.attributes.set(name, value);
    },
    getAttribute(name: string) {
      return made.attributes.get(name) ?? null;
    },
    hasAttribute(name: string) {
      return made.attributes.has(name);
    },
    remove() {
      made.removed = true;
    },
    focus(options: unknown) {
      made.focused = options ?? true;
    },
    scrollIntoView() {
      made.scrolledIntoView = true;
    },
  };
  return made;
}

/** A document whose selectors are answered from `found` (selector → elements), its head's and body's children recorded. */
function fakeDocument(found: Record<string, FakeElement[]> = {}, byId: Record<string, FakeElement> = {}) {
  const head: FakeElement[] = [];
  const body: FakeElement[] = [];
  const documentElement: Record<string, unknown> = {};
  const document = {
    title: 'before',
    activeElement: null as unknown,
    documentElement,
    head: {
      append: (child: FakeElement) => head.push(child),
      querySelectorAll: (selector: string) => found[selector] ?? [],
    },
    body: { append: (child: FakeElement) => body.push(child) },
    createElement: (tag: string) => element(tag),
    querySelector: (selector: string) => found[selector]?.[0] ?? null,
    getElementById: (id: string) => byId[id] ?? null,
  };
  vi.stubGlobal('document', document);
  return { document, head, body, documentElement };
}

describe('a form posted in place (postsInPlace)', () => {
  function form(fields: Partial<{ enctype: string; method: string; target: string }> = {}) {
    return { enctype: 'application/x-www-form-urlencoded', method: 'post', target: '', ...fields } as unknown as HTMLFormElement;
  }
  function button(fields: Partial<{ formenctype: string; formMethod: string; formTarget: string }> = {}) {
    const { formenctype, formMethod = '', formTarget = '' } = fields;
    return { getAttribute: (name: string) => (name === 'formenctype' ? (formenctype ?? null) : null), formMethod, formTarget } as unknown as HTMLElement;
  }

  test.each([
    ['a urlencoded post to this window', form(), null, true],
    ['one to _self', form({ target: '_self' }), null, true],
    ['a search (GET)', form({ method: 'get' }), null, false],
    ['one with a file', form({ enctype: 'multipart/form-data' }), null, false],
    ['one to another window', form({ target: '_blank' }), null, false],
    ['a button that posts a GET form', form({ method: 'get' }), button({ formMethod: 'post' }), true],
    ['a button that sends a post as a search', form(), button({ formMethod: 'get' }), false],
    ['a button that sends it with a file', form(), button({ formenctype: 'multipart/form-data' }), false],
    ['a button that sends a multipart form urlencoded', form({ enctype: 'multipart/form-data' }), button({ formenctype: 'application/x-www-form-urlencoded' }), true],
    ['a button that sends it to another window', form(), button({ formTarget: '_blank' }), false],
    ['a button that keeps a form for another window here', form({ target: '_blank' }), button({ formTarget: '_self' }), true],
    ['a button that says nothing', form(), button(), true],
  ])('%s: %s', (_case, given, submitter, inPlace) => {
    expect(postsInPlace(given, submitter)).toBe(inPlace);
  });
});

describe("a history entry's scroll", () => {
  test('is kept only as a list, and saved beside what the entry already holds', () => {
    expect(keptScroll({ scroll: [10, 20] })).toEqual([10, 20]);
    expect(keptScroll({ scroll: '10,20' })).toBeUndefined();
    expect(keptScroll({})).toBeUndefined();
    vi.stubGlobal('scrollX', 5);
    vi.stubGlobal('scrollY', 700);
    const replaced: unknown[] = [];
    const history = { state: { key: 3, doc: 0.5 }, replaceState: (state: unknown, title: string) => replaced.push([state, title]) };
    saveScroll(history as unknown as History);
    expect(replaced).toEqual([[{ key: 3, doc: 0.5, scroll: [5, 700] }, '']]);
  });
});

describe("the document's head (setHead)", () => {
  test("replaces the page's tags, sets the language and adds the canonical link", () => {
    const old = element('meta');
    const { document, head, documentElement } = fakeDocument({ 'meta[name=description],meta[name=robots],meta[property^="og:"],link[rel=canonical]': [old] });
    setHead('Guests', {
      title: 'Guests',
      html: { lang: 'fr', dir: 'ltr' },
      canonical: 'https://example.test/guests',
      meta: [{ key: 'name', value: 'description', content: 'Who came' }],
    });
    expect(document.title).toBe('Guests');
    expect(old.removed).toBe(true);
    expect(documentElement).toMatchObject({ lang: 'fr', dir: 'ltr' });
    expect(head).toHaveLength(2);
    expect(head[0]?.tag).toBe('meta');
    expect(head[0]?.attributes.get('name')).toBe('description');
    expect(head[0]?.content).toBe('Who came');
    expect(head[1]).toMatchObject({ tag: 'link', rel: 'canonical', href: 'https://example.test/guests' });
  });

  test('without a canonical address adds no link; without a head keeps the tags and sets the title only', () => {
    const old = element('meta');
    const { document, head } = fakeDocument({ 'meta[name=description],meta[name=robots],meta[property^="og:"],link[rel=canonical]': [old] });
    setHead('404: Nothing here.', { meta: [{ key: 'name', value: 'robots', content: 'noindex' }] });
    expect(head.map((child) => child.tag)).toEqual(['meta']);
    expect(old.removed).toBe(true);
    const kept = element('meta');
    const second = fakeDocument({ 'meta[name=description],meta[name=robots],meta[property^="og:"],link[rel=canonical]': [kept] });
    setHead('Failed', undefined);
    expect(second.document.title).toBe('Failed');
    expect(kept.removed).toBe(false);
    expect(second.head).toEqual([]);
    expect(document.title).toBe('404: Nothing here.');
  });

  test('the live region is made once, assertive and atomic, and says each text', () => {
    const { body } = fakeDocument();
    announce('First');
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ tag: 'div', id: 'nav-announcer', className: 'sr-only', ariaLive: 'assertive', ariaAtomic: 'true', textContent: 'First' });
    const region = body[0];
    if (region === undefined) throw new Error('no region');
    fakeDocument({}, { 'nav-announcer': region });
    announce('Second');
    expect(region.textContent).toBe('Second');
  });
});

describe("a page's stylesheets", () => {
  test('are added switched off, once each, and not at all when the document has them', async () => {
    const linked = element('link');
    const { head } = fakeDocument({ 'link[rel=stylesheet][href="/assets/linked.css"],style[data-href="/assets/linked.css"]': [linked] });
    const sheets = new Map<string, Promise<unknown>>();
    let settled = false;
    const loading = loadStyles(sheets, ['/assets/a.css', '/assets/linked.css']).then(() => {
      settled = true;
    });
    expect(head).toHaveLength(1);
    expect(head[0]).toMatchObject({ tag: 'link', rel: 'stylesheet', media: 'not all', href: '/assets/a.css' });
    expect([...sheets.keys()]).toEqual(['/assets/a.css']);
    await Promise.resolve();
    expect(settled).toBe(false);
    // Loaded or failed, it holds the page back no more.
    settleLink(head[0], 'onerror');
    await loading;
    expect(settled).toBe(true);
    // Asked again: the same sheet, not a second link.
    await loadStyles(sheets, ['/assets/a.css']);
    expect(head).toHaveLength(1);
  });

  test("switch on exactly the page's, and leave a sheet no route names alone", () => {
    const a = element('link', { href: '/assets/a.css' });
    const b = element('style', { 'data-href': '/assets/b.css' });
    const other = element('link', { href: '/assets/other.css' });
    other.media = 'print';
    fakeDocument({ 'link[rel=stylesheet],style[data-href]': [a, b, other] });
    applyStyles(['/assets/a.css', '/assets/b.css'], ['/assets/b.css']);
    expect([a.media, b.media, other.media]).toEqual(['not all', 'all', 'print']);
    applyStyles(['/assets/a.css', '/assets/b.css'], ['/assets/a.css']);
    expect([a.media, b.media, other.media]).toEqual(['all', 'not all', 'print']);
  });
});

describe('a view arrived at (arrive)', () => {
  function scrolls() {
    const scrolled: unknown[] = [];
    vi.stubGlobal('scrollTo', (...to: unknown[]) => scrolled.push(to));
    return scrolled;
  }

  test("scrolls to the top, focuses the main heading without scrolling (made focusable) and says the page's title", () => {
    const heading = element('h1');
    const { document, body } = fakeDocument({ '#root main h1': [heading] });
    document.title = 'Guests';
    const scrolled = scrolls();
    arrive({ announce: true }, announce);
    expect(scrolled).toEqual([[0, 0]]);
    expect(heading.attributes.get('tabindex')).toBe('-1');
    expect(heading.focused).toEqual({ preventScroll: true });
    expect(body[0]?.textContent).toBe('Guests');
  });

  test("keeps a heading's own tabindex, takes any heading when there is no main one, and says nothing unless asked", () => {
    const heading = element('h1', { tabindex: '0' });
    const { body } = fakeDocument({ '#root h1': [heading] });
    scrolls();
    arrive({ announce: false }, announce);
    expect(heading.attributes.get('tabindex')).toBe('0');
    expect(heading.focused).toEqual({ preventScroll: true });
    expect(body).toEqual([]);
  });

  test('goes back to a kept scroll, or to the element a fragment names, decoded when it can be', () => {
    const target = element('section');
    const odd = element('section');
    fakeDocument({}, { café: target, '%E0%A4%A': odd });
    const scrolled = scrolls();
    arrive({ announce: false, scroll: [0, 300], hash: '#caf%C3%A9' }, announce);
    expect(scrolled).toEqual([[0, 300]]);
    expect(target.scrolledIntoView).toBe(false);
    arrive({ announce: false, hash: '#caf%C3%A9' }, announce);
    expect(target.scrolledIntoView).toBe(true);
    arrive({ announce: false, hash: '#%E0%A4%A' }, announce);
    expect(odd.scrolledIntoView).toBe(true);
    expect(scrolled).toEqual([[0, 300]]);
  });

  test('a field the visitor is typing in keeps the focus and the scroll; an invalid field takes the focus', () => {
    const heading = element('h1');
    const invalid = element('input');
    const { document } = fakeDocument({ '#root main h1': [heading], '#root [aria-invalid=true]': [invalid] });
    document.activeElement = { matches: (selector: string) => selector === '#root input,#root textarea,#root select' };
    const scrolled = scrolls();
    arrive({ announce: false }, announce);
    expect(invalid.focused).toBe(true);
    expect(scrolled).toEqual([]);
    expect(heading.focused).toBeUndefined();
  });
});

describe("a data answer's parts (page-answer.ts)", () => {
  test('lines arrive whole however the body is cut', async () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of ['{"assets":', '{"script":"/p.js"}}\n"one"', '\n"two"\n']) controller.enqueue(encoder.encode(piece));
        controller.close();
      },
    });
    const read: unknown[] = [];
    for await (const line of lines(new Response(body))) read.push(line);
    expect(read).toEqual([{ assets: { script: '/p.js' } }, 'one', 'two']);
    expect(isMeta(read[0])).toBe(true);
    expect(isMeta(read[1])).toBe(false);
    expect(isMeta(null)).toBe(false);
  });

  test("a page's entry counts only with a list of modules that each have a component", () => {
    const component = () => null;
    expect(routeModulesOf({ modules: [{ default: component }] })).toEqual([{ default: component }]);
    expect(routeModulesOf({ modules: [{ default: component }, { default: 'text' }] })).toBeUndefined();
    expect(routeModulesOf({ modules: { default: component } })).toBeUndefined();
    expect(routeModulesOf(null)).toBeUndefined();
  });

  test('a layout the server left out is filled from the view on the screen, only from one that has its data', () => {
    const onScreen: View = {
      key: 1,
      modules: [],
      page: {
        data: 'p',
        params: {},
        layouts: [
          { id: 'root', data: 'root data' },
          { id: 'inner', kept: true },
        ],
      },
    };
    const page = {
      data: 'q',
      params: {},
      layouts: [
        { id: 'root', kept: true as const },
        { id: 'side', data: 'side data' },
      ],
    };
    expect(withKeptLayouts(page, onScreen)).toEqual({
      ...page,
      layouts: [
        { id: 'root', data: 'root data' },
        { id: 'side', data: 'side data' },
      ],
    });
    expect(withKeptLayouts({ data: 'q', params: {}, layouts: [{ id: 'inner', kept: true }] }, onScreen)).toBeUndefined();
    expect(withKeptLayouts(page, { key: 2, status: 404, message: 'Nothing here.' })).toBeUndefined();
    const none = { data: 'q', params: {}, layouts: [{ id: 'side', data: 'side data' }] };
    expect(withKeptLayouts(none, onScreen)).toBe(none);
  });

  test("a status answer's view takes its words and digest, else the status's own words", async () => {
    const json = (body: unknown, status: number) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    await expect(statusView(json({ message: 'Gone away.', digest: 'abc123' }, 410), 7, statusMessage)).resolves.toEqual({
      key: 7,
      status: 410,
      message: 'Gone away.',
      digest: 'abc123',
    });
    await expect(statusView(json({ message: 3, digest: 4 }, 404), 8, statusMessage)).resolves.toEqual({
      key: 8,
      status: 404,
      message: 'This page could not be found.',
      digest: undefined,
    });
    await expect(statusView(json(null, 404), 9, statusMessage)).resolves.toMatchObject({ message: 'This page could not be found.' });
  });
});
