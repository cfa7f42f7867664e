import { readFileSync } from 'node:fs';
import type { BrotliCompress, Gzip } from 'node:zlib';
import { createEncoder, isEncoderSetting } from './encoder-settings.ts';
import { procMemoryBytes } from './proc-memory.ts';

/**
 * One setting of the sweep, in a process of its own (so its peak RSS is this setting's):
 * `streams` encoders at once, each fed the page as the page handler feeds a response's
 * compressor (one write per React batch, server/render/react-destination.ts: the shell, flush,
 * then the tail and the end), with every shell in before any tail, as when the page's last
 * boundary waits. Prints one JSON line.
 *
 * argv: setting (JSON), page file, byte offset where the tail starts, streams.
 */
const [settingJson = '', pageFile = '', splitText = '', streamsText = ''] = process.argv.slice(2);
const setting: unknown = JSON.parse(settingJson);
if (!isEncoderSetting(setting)) throw new Error(`not an encoder setting: ${settingJson}`);
const page = readFileSync(pageFile);
const split = Number(splitText);
const streams = Number(streamsText);
function flushed(encoder: BrotliCompress | Gzip): Promise<void> {
  return new Promise((resolve) => encoder.flush(() => resolve()));
}

const baselineRss = procMemoryBytes(process.pid, 'VmRSS') ?? 0;
const cpuBefore = process.cpuUsage();
const started = performance.now();
let compressedBytes = 0;
const encoders = Array.from({ length: streams }, () => {
  const encoder = createEncoder(setting);
  encoder.on('data', (chunk: Buffer) => {
    compressedBytes += chunk.length;
  });
  return encoder;
});
const ended = encoders.map((encoder) => new Promise((resolve) => encoder.once('end', resolve)));
await Promise.all(
  encoders.map((encoder) => {
    encoder.write(page.subarray(0, split));
    return flushed(encoder);
  }),
);
for (const encoder of encoders) {
  encoder.write(page.subarray(split));
  encoder.end();
}
await Promise.all(ended);
const cpu = process.cpuUsage(cpuBefore);
const wallMs = performance.now() - started;

process.stdout.write(
  `${JSON.stringify({
    baselineRss,
    peakRss: procMemoryBytes(process.pid, 'VmHWM') ?? 0,
    cpuMicrosPerPage: (cpu.user + cpu.system) / streams,
    bytesPerPage: compressedBytes / streams,
    wallMs,
  })}\n`,
);
