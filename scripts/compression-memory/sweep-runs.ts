import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BIG_PAGE_END, BIG_PAGE_PATH, BIG_PAGE_WITH_DATA_PATH } from './big-page-markers.ts';
import { settingName, type EncoderSetting } from './encoder-settings.ts';
import { startMeasuredServer } from './measured-server.ts';
import { getPage } from './page-client.ts';

/** Node's defaults: minutes of CPU on the largest page, so measured on the others only. */
const NODE_DEFAULT: EncoderSetting = { kind: 'br', quality: 11, lgwin: 22 };

const SETTINGS: readonly EncoderSetting[] = [
  { kind: 'br', quality: 4, lgwin: 22 },
  { kind: 'br', quality: 4, lgwin: 20 },
  { kind: 'br', quality: 4, lgwin: 18 },
  { kind: 'br', quality: 4, lgwin: 17 },
  { kind: 'br', quality: 4, lgwin: 16 },
  // As server/http/compression.ts sets it.
  { kind: 'br', quality: 4, lgwin: 18, sizeHint: 256 * 1024 },
  { kind: 'br', quality: 5, lgwin: 18 },
  { kind: 'gzip', level: 6, memLevel: 8, windowBits: 15 },
];

export interface SweepPage {
  readonly name: string;
  readonly path: string;
  readonly settings: readonly EncoderSetting[];
}

export const SWEEP_PAGES: readonly SweepPage[] = [
  { name: '1 MB listing', path: BIG_PAGE_PATH, settings: [NODE_DEFAULT, ...SETTINGS] },
  { name: '1 MB listing after its data', path: BIG_PAGE_WITH_DATA_PATH, settings: [NODE_DEFAULT, ...SETTINGS] },
  { name: '200 kB listing after its data', path: `${BIG_PAGE_WITH_DATA_PATH}?rows=420`, settings: [NODE_DEFAULT, ...SETTINGS] },
  { name: '3 MB listing after its data', path: `${BIG_PAGE_WITH_DATA_PATH}?rows=6300`, settings: SETTINGS },
];

/** The identity bytes of each sweep page, from the app itself. */
export async function sweepPageBytes(entry: string, timeoutMs: number): Promise<readonly Buffer[]> {
  const server = await startMeasuredServer(entry, { tailMs: 0 });
  try {
    const pages: Buffer[] = [];
    for (const page of SWEEP_PAGES) {
      const answer = await getPage(`${server.origin}${page.path}`, 'identity', timeoutMs);
      if (answer.status !== 200 || !answer.html.includes(BIG_PAGE_END)) throw new Error(`${page.path} answered ${answer.status}, incomplete`);
      pages.push(Buffer.from(answer.html));
    }
    return pages;
  } finally {
    await server.stop();
  }
}

/** What encoder-sweep.ts prints. */
export interface SweepResult {
  readonly baselineRss: number;
  readonly peakRss: number;
  readonly cpuMicrosPerPage: number;
  readonly bytesPerPage: number;
  readonly wallMs: number;
}

function isSweepResult(value: unknown): value is SweepResult {
  return typeof value === 'object' && value !== null && 'peakRss' in value && 'bytesPerPage' in value && 'cpuMicrosPerPage' in value;
}

const run = promisify(execFile);

/** One setting on one page, `streams` encoders at once, in a process of its own. */
export async function sweepOne(setting: EncoderSetting, pageFile: string, split: number, streams: number): Promise<SweepResult> {
  const script = join(import.meta.dirname, 'encoder-sweep.ts');
  const { stdout } = await run(process.execPath, [script, JSON.stringify(setting), pageFile, String(split), String(streams)], { timeout: 5 * 60_000 });
  const result: unknown = JSON.parse(stdout);
  if (!isSweepResult(result)) throw new Error(`sweep of ${settingName(setting)}: unexpected output ${stdout}`);
  return result;
}
