import { APP_DETAIL_ID, APP_JSON_PATH, APP_LIST_ITEMS, APP_LIST_MARKER, APP_LIST_PATH, APP_VISITOR_NAME, appDetailPath, visitorLine } from './app-list-fixture.ts';
import { appVisitorCookie } from './app-visitor-session.ts';
import type { ServerKey } from './bench-servers.ts';
import { FLAT_PATH, LAYOUTS_MARKER, LAYOUTS_PATH, SECTION_MARKER } from './layouts-fixture.ts';
import { DEFERRED_MARKER, DEFERRED_PATH, SUSPENSE_MARKER, SUSPENSE_PATH } from './suspense-fixture.ts';

/** Text an answer must contain; with several, all of them. */
export type Marker = string | readonly string[];

/**
 * One row of a scenario: a server, and what it is asked for when that differs from the
 * scenario's path (the same server asked for two pages is two contenders, two processes).
 */
export interface Contender {
  /** Unique within its scenario; what `Comparison.baseline` names. */
  readonly id: string;
  readonly server: ServerKey;
  /** Instead of the scenario's path and marker. */
  readonly path?: string;
  readonly marker?: Marker;
  /** Instead of the server's label in the table. */
  readonly label?: string;
}

/** A server under its own key (asked for the scenario's path), or a contender spelled out. */
export type Participant = ServerKey | Contender;

export function contenderOf(participant: Participant): Contender {
  return typeof participant === 'string' ? { id: participant, server: participant } : participant;
}

/** What a scenario's product row is divided by: another contender of the same run. */
export interface Comparison {
  /** req/s (and, when `p99`, the p99 latency) are ratios to this contender (a server key, or a contender's id). */
  readonly baseline: string;
  readonly p99: boolean;
}

export interface Scenario {
  readonly id: string;
  readonly label: string;
  /** Set when the path comes from the build (the static asset). */
  readonly path: string | ((asset: string) => string);
  readonly connections: number;
  readonly expectedStatus: number;
  /** Text every server's answer must contain, checked once before the load. */
  readonly marker: Marker;
  /** The product row first; the others run interleaved with it, A B A B. */
  readonly subject: Participant;
  readonly others: readonly Participant[];
  readonly comparison: Comparison;
  /** The `Cookie` header every request of the scenario sends (made once per run); none without it. */
  readonly cookie?: () => Promise<string>;
}

/** The floor of React streaming: peak RSS (in each scenario that runs it) and cold start are ratios to it. */
export const REACT_FLOOR: ServerKey = 'http-react';
/**
 * Cold start: the product, bare Express 5 (the floor of any server built on Express as published)
 * and the React floor every ratio is taken to.
 */
export const COLD_START_SERVERS: readonly ServerKey[] = ['product', 'express', REACT_FLOOR];

/** The benchmark's scenarios, in the order of the table. */
export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'home',
    label: '/ (home)',
    path: '/',
    connections: 50,
    expectedStatus: 200,
    marker: '<div id="root">',
    subject: 'product',
    others: ['express', 'http-react', 'http-bytes'],
    comparison: { baseline: 'express', p99: false },
  },
  {
    id: 'suspense-50',
    label: 'suspense 50ms, 50 conn',
    path: SUSPENSE_PATH,
    connections: 50,
    expectedStatus: 200,
    marker: SUSPENSE_MARKER,
    subject: 'product-fixture',
    others: ['http-react'],
    comparison: { baseline: 'http-react', p99: true },
  },
  {
    id: 'suspense-200',
    label: 'suspense 50ms, 200 conn',
    path: SUSPENSE_PATH,
    connections: 200,
    expectedStatus: 200,
    marker: SUSPENSE_MARKER,
    subject: 'product-fixture',
    others: ['http-react'],
    comparison: { baseline: 'http-react', p99: true },
  },
  {
    // CPU-bound: the 50 ms wait no longer hides the cost of each request.
    id: 'suspense-1000',
    label: 'suspense 50ms, 1000 conn',
    path: SUSPENSE_PATH,
    connections: 1000,
    expectedStatus: 200,
    marker: SUSPENSE_MARKER,
    subject: 'product-fixture',
    others: ['http-react'],
    comparison: { baseline: 'http-react', p99: true },
  },
  {
    id: 'deferred-200',
    label: 'deferred 50ms, 200 conn',
    path: DEFERRED_PATH,
    connections: 200,
    expectedStatus: 200,
    // The value rendered into its boundary, and serialized into the page's data as a string literal.
    marker: [DEFERRED_MARKER, JSON.stringify(DEFERRED_MARKER)],
    subject: { id: 'deferred', server: 'product-fixture', label: 'fixture: deferred value' },
    others: [{ id: 'local-promise', server: 'product-fixture', path: SUSPENSE_PATH, marker: SUSPENSE_MARKER, label: 'fixture: local promise' }],
    comparison: { baseline: 'local-promise', p99: true },
  },
  {
    // No wait to hide behind: the same markup with and without two layouts, so every cost of theirs shows.
    id: 'layouts-200',
    label: 'two layouts, 200 conn',
    path: LAYOUTS_PATH,
    connections: 200,
    expectedStatus: 200,
    // The page's part and the section's, written by the layouts in one and by the page in the other.
    marker: [LAYOUTS_MARKER, SECTION_MARKER],
    subject: { id: 'layouts', server: 'product-fixture', label: 'fixture: two layouts' },
    others: [{ id: 'flat', server: 'product-fixture', path: FLAT_PATH, label: 'fixture: flat page' }],
    comparison: { baseline: 'flat', p99: true },
  },
  {
    // An app's pages, each beside node:http + React writing the same markup: a signed-in visitor
    // (the session cookie verified, the form token's too), the list in two layouts with a
    // fetcher form per item and a 300 ms deferred value, an item's page, the items as JSON.
    id: 'app-list',
    label: 'app list page, 200 conn',
    path: APP_LIST_PATH,
    connections: 200,
    expectedStatus: 200,
    // The session read, the deferred value streamed, and the last item's form.
    marker: [visitorLine(APP_VISITOR_NAME), `<p>${APP_LIST_MARKER}</p>`, `value="item-${APP_LIST_ITEMS}"`],
    subject: 'product-fixture',
    others: ['http-react'],
    comparison: { baseline: 'http-react', p99: true },
    cookie: appVisitorCookie,
  },
  {
    id: 'app-detail',
    label: 'app detail page, 50 conn',
    path: appDetailPath(APP_DETAIL_ID),
    connections: 50,
    expectedStatus: 200,
    // The head from the page's data, and the session read.
    marker: ['<title>Item number 7 · ', visitorLine(APP_VISITOR_NAME)],
    subject: 'product-fixture',
    others: ['http-react'],
    comparison: { baseline: 'http-react', p99: false },
    cookie: appVisitorCookie,
  },
  {
    id: 'app-json',
    label: 'app JSON route, 50 conn',
    path: APP_JSON_PATH,
    connections: 50,
    expectedStatus: 200,
    marker: `{"id":"item-${APP_LIST_ITEMS}","title":"Item number ${APP_LIST_ITEMS}"`,
    subject: 'product-fixture',
    others: ['http-react'],
    comparison: { baseline: 'http-react', p99: false },
    cookie: appVisitorCookie,
  },
  {
    id: '404',
    label: '404 page',
    // A missing built file: the framework's own 404 status page, as the baselines serve it. An
    // unknown address elsewhere shows the example app's not-found page inside its layout.
    path: '/assets/no-such-file.js',
    connections: 50,
    expectedStatus: 404,
    marker: 'This page could not be found.',
    subject: 'product',
    others: ['express', 'http-react', 'http-bytes'],
    comparison: { baseline: 'express', p99: false },
  },
  {
    id: 'static',
    label: 'static asset',
    path: (asset) => asset,
    connections: 50,
    expectedStatus: 200,
    marker: '',
    subject: 'product',
    others: ['http-bytes'],
    comparison: { baseline: 'http-bytes', p99: false },
  },
];
