import type { ServerKey } from './bench-servers.ts';
import { SUSPENSE_MARKER, SUSPENSE_PATH } from './suspense-fixture.ts';

/** What a scenario's product row is divided by: the matching server of the same run. */
export interface Comparison {
  /** req/s (and, when `p99`, the p99 latency) are ratios to this server. */
  readonly baseline: ServerKey;
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
  readonly marker: string;
  /** The product row first; the others run interleaved with it, A B A B. */
  readonly subject: ServerKey;
  readonly others: readonly ServerKey[];
  readonly comparison: Comparison;
}

/** The floor of React streaming: peak RSS (in each scenario that runs it) and cold start are ratios to it. */
export const REACT_FLOOR: ServerKey = 'http-react';
export const COLD_START_SERVERS: readonly ServerKey[] = ['product', REACT_FLOOR];

/** Issue 5's scenarios, in the order of the table. */
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
    id: '404',
    label: '404 page',
    path: '/no/such/page',
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
