import { setTimeout as sleep } from 'node:timers/promises';
import { APP_LIST_MARKER, APP_LIST_PATH } from './app-list-fixture.ts';
import { httpGet } from '../lib/http-get.ts';
import { runOverloadLoad, type OverloadCounts } from './overload-load.ts';
import { spawnBenchServer, type BenchServerSpec } from './spawn-bench-server.ts';

/** As many connections as the load the figure stands for: more than one instance can serve. */
export const OVERLOAD_CONNECTIONS = 1_000;
/** The delivery deadline of every answer (RENDER_TIMEOUT_MS's default): past it, a request is unanswered. */
export const OVERLOAD_DEADLINE_MS = 10_000;

/**
 * The same server without what keeps it answering under overload: Node's backlog and single
 * listening socket, and no guard (docs/security.md#overload).
 */
export const WITHOUT_OVERLOAD_MEASURES: Readonly<Record<string, string>> = { LISTEN_BACKLOG: '511', LISTEN_SOCKETS: '1', OVERLOAD_GUARD: 'off' };

export interface OverloadRow {
  readonly label: string;
  readonly counts: OverloadCounts;
}

export interface OverloadFigure {
  readonly seconds: number;
  readonly rows: readonly OverloadRow[];
}

async function drive(spec: BenchServerSpec, label: string, seconds: number, logDir: string): Promise<OverloadRow> {
  const server = await spawnBenchServer(spec, logDir);
  try {
    const url = `${server.origin}${APP_LIST_PATH}`;
    let answer = await httpGet(url, 10_000);
    // A process just started compiles as it answers, and the guard may refuse until it is warm.
    for (let attempt = 1; answer.status === 503 && attempt <= 5; attempt += 1) {
      await sleep(1_000);
      answer = await httpGet(url, 10_000);
    }
    const { status, body } = answer;
    if (status !== 200 || !body.includes(APP_LIST_MARKER)) throw new Error(`${server.name} answered GET ${APP_LIST_PATH} with ${status}, without "${APP_LIST_MARKER}"`);
    const counts = await runOverloadLoad({ url, connections: OVERLOAD_CONNECTIONS, durationSeconds: seconds, deadlineMs: OVERLOAD_DEADLINE_MS });
    return { label, counts };
  } finally {
    await server.stop();
  }
}

/** The product's own overload settings, which the load scenarios' servers turn off (bench-servers.ts). */
export const WITH_OVERLOAD_MEASURES: Readonly<Record<string, string>> = { OVERLOAD_GUARD: 'on' };

/**
 * The app-shaped page (app-list-fixture.ts) at 1,000 connections for `seconds`, on the fixture
 * build as configured by default, then on the same build without the overload measures.
 */
export async function measureOverload(spec: BenchServerSpec, seconds: number, logDir: string): Promise<OverloadFigure> {
  const product = await drive({ ...spec, env: { ...spec.env, ...WITH_OVERLOAD_MEASURES } }, 'product', seconds, logDir);
  const without = await drive({ ...spec, env: { ...spec.env, ...WITHOUT_OVERLOAD_MEASURES } }, 'without its measures', seconds, logDir);
  return { seconds, rows: [product, without] };
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** The figure as a few lines of text; the target is the product's unanswered: 0. */
export function overloadSection(figure: OverloadFigure): string {
  const columns = ['answered', 'refused', 'unanswered', 'other', 'p99 ok ms', 'p99 503 ms', 'max ms'];
  const row = (label: string, cells: readonly string[]) =>
    `${label.padEnd(22)}${cells.map((cell, index) => cell.padStart(Math.max(11, (columns[index]?.length ?? 0) + 2))).join('')}`;
  const product = figure.rows[0];
  return [
    `Overload: ${APP_LIST_PATH} (two layouts, 20 fetcher buttons, a value deferred 300 ms), ${integer.format(OVERLOAD_CONNECTIONS)} connections, ${figure.seconds} s, deadline ${OVERLOAD_DEADLINE_MS / 1000} s`,
    '',
    row('', columns),
    ...figure.rows.map(({ label, counts }) =>
      row(
        label,
        [counts.answered, counts.refused, counts.unanswered, counts.other, counts.p99AnsweredMs, counts.p99RefusedMs, counts.maxMs].map((value) => integer.format(value)),
      ),
    ),
    '',
    `target: unanswered 0 ${product !== undefined && product.counts.unanswered === 0 && product.counts.other === 0 ? 'met' : 'MISSED'} (answered: 2xx; refused: 503 with Retry-After; refused clients come back after it)`,
    '',
  ].join('\n');
}
