import { request } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { NAVIGATION_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { BROWSER_HEADERS } from '../lib/http-get.ts';
import { median } from './cold-start.ts';
import { MANY_DEFERRED_COUNT, MANY_DEFERRED_MARKER, MANY_DEFERRED_PATH } from './suspense-fixture.ts';
import { spawnBenchServer, type BenchServerSpec } from './spawn-bench-server.ts';

/** One answer's figures: the median over the runs. */
export interface AnswerFigure {
  /** From sending the request to the answer's last byte. */
  readonly medianMs: number;
  /** Compressed bytes of the body, as they came off the wire. */
  readonly wireBytes: number;
}

/** The same page's many deferred values, as its document and as an in-place navigation's data. */
export interface ManyDeferredFigure {
  readonly values: number;
  readonly runs: number;
  readonly document: AnswerFigure;
  readonly navigation: AnswerFigure;
}

interface Timed {
  readonly ms: number;
  readonly wire: Buffer;
}

const TIMEOUT_MS = 30_000;

/** What a browser's in-place navigation sends (client/router.tsx). */
const NAVIGATION_HEADERS = { ...BROWSER_HEADERS, [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n1', accept: 'application/x-ndjson, application/json;q=0.9' };

/** GETs `url` as a browser that takes brotli, timing it to the last byte; checks the answer is whole. */
function timedGet(url: string, headers: Readonly<Record<string, string>>, complete: (text: string) => boolean): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent: false, headers: { ...headers, 'accept-encoding': 'br' }, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const ms = performance.now() - started;
        const wire = Buffer.concat(chunks);
        if (res.statusCode !== 200 || res.headers['content-encoding'] !== 'br') {
          reject(new Error(`${url}: ${res.statusCode} with ${res.headers['content-encoding'] ?? 'no'} encoding`));
        } else if (!complete(brotliDecompressSync(wire).toString())) {
          reject(new Error(`${url}: the answer is missing values`));
        } else {
          resolve({ ms, wire });
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer in ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end();
  });
}

function figure(samples: readonly Timed[]): AnswerFigure {
  return { medianMs: median(samples.map((sample) => sample.ms)), wireBytes: median(samples.map((sample) => sample.wire.length)) };
}

/**
 * The fixture's page of MANY_DEFERRED_COUNT values that settle together, asked for `runs`
 * times as a document and as navigation data, in turns, one request at a time on a server of
 * its own: the two answers carry the same scripts, so they should cost about the same.
 */
export async function measureManyDeferred(spec: BenchServerSpec, runs: number, logDir: string): Promise<ManyDeferredFigure> {
  const server = await spawnBenchServer(spec, logDir);
  try {
    const url = `${server.origin}${MANY_DEFERRED_PATH}`;
    const documents: Timed[] = [];
    const navigations: Timed[] = [];
    const lastValue = `${MANY_DEFERRED_MARKER} ${MANY_DEFERRED_COUNT - 1}`;
    // One of each first, unmeasured: the first request of a process pays for its compilation.
    for (let i = 0; i <= runs; i += 1) {
      const document = await timedGet(url, BROWSER_HEADERS, (text) => text.includes(lastValue) && text.endsWith('</html>'));
      const navigation = await timedGet(url, NAVIGATION_HEADERS, (text) => text.split('\n').length === MANY_DEFERRED_COUNT + 3);
      if (i === 0) continue;
      documents.push(document);
      navigations.push(navigation);
    }
    return { values: MANY_DEFERRED_COUNT, runs, document: figure(documents), navigation: figure(navigations) };
  } finally {
    await server.stop();
  }
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** The figure as a few lines of text: both answers, and navigation data over document. */
export function manyDeferredSection(figure: ManyDeferredFigure): string {
  const row = (label: string, answer: AnswerFigure) => `${label.padEnd(16)}${answer.medianMs.toFixed(1).padStart(9)}${integer.format(answer.wireBytes).padStart(13)}`;
  const { document, navigation } = figure;
  return [
    `Many deferred values: ${integer.format(figure.values)} that settle together, brotli, median of ${figure.runs}`,
    '',
    `${'answer'.padEnd(16)}${'ms'.padStart(9)}${'bytes'.padStart(13)}`,
    row('document', document),
    row('navigation data', navigation),
    `${'ratio'.padEnd(16)}${(navigation.medianMs / document.medianMs).toFixed(2).padStart(9)}${(navigation.wireBytes / document.wireBytes).toFixed(2).padStart(13)}`,
    '',
  ].join('\n');
}
