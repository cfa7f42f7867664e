import { request } from 'node:http';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServerProcess, type ServerProcess } from '../fixtures/proxy-harness.ts';
import { freePort, startNginx, type RunningNginx } from './nginx.ts';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/** One nginx per setting of COMPRESSION, each in front of two instances. */
interface Stack {
  readonly nginx: RunningNginx;
  readonly instances: readonly ServerProcess[];
}

const stacks = new Map<'on' | 'off', Stack>();
const started: Array<{ stop(): Promise<void> }> = [];

async function startStack(compression: 'on' | 'off'): Promise<Stack> {
  const ports: [number, number] = [await freePort(), await freePort()];
  const instances: ServerProcess[] = [];
  for (const port of ports) {
    const instance = await startServerProcess({ PORT: String(port), COMPRESSION: compression });
    started.push(instance);
    instances.push(instance);
  }
  const nginx = await startNginx({ port: await freePort(), upstreams: ports });
  started.push(nginx);
  return { nginx, instances };
}

beforeAll(async () => {
  stacks.set('on', await startStack('on'));
  stacks.set('off', await startStack('off'));
});
afterAll(async () => {
  await Promise.all(started.map((child) => child.stop()));
});

function origin(compression: 'on' | 'off'): string {
  const stack = stacks.get(compression);
  if (stack === undefined) throw new Error(`no stack with COMPRESSION=${compression}`);
  return stack.nginx.origin;
}

interface Decoded {
  readonly encoding: string | undefined;
  readonly chunks: ReadonlyArray<{ readonly at: number; readonly text: string }>;
}

/** Decompresses as bytes arrive through nginx, stamping each piece of text with its arrival. */
function getDecoded(url: string, acceptEncoding: string): Promise<Decoded> {
  return new Promise((resolve, reject) => {
    const sentAt = performance.now();
    const req = request(url, { agent: false, headers: { 'User-Agent': CHROME, 'Accept-Encoding': acceptEncoding } }, (res) => {
      const encoding = res.headers['content-encoding'];
      const decoder = encoding === 'br' ? createBrotliDecompress() : encoding === 'gzip' ? createGunzip() : undefined;
      const chunks: { at: number; text: string }[] = [];
      const source = decoder === undefined ? res : res.pipe(decoder);
      source.on('data', (chunk: Buffer) => chunks.push({ at: performance.now() - sentAt, text: chunk.toString() }));
      source.on('end', () => resolve({ encoding, chunks }));
      source.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function arrival(decoded: Decoded, marker: string): number {
  const chunk = decoded.chunks.find((candidate) => candidate.text.includes(marker));
  if (chunk === undefined) throw new Error(`${marker} never arrived`);
  return chunk.at;
}

describe('compressed streaming behind real nginx', () => {
  test.each(['br', 'gzip'])('%s: each React flush passes through, so the shell arrives before the slow boundary', async (encoding) => {
    const decoded = await getDecoded(`${origin('on')}/fixtures/slow?ms=800`, encoding);
    expect(decoded.encoding).toBe(encoding);
    expect(arrival(decoded, 'SLOW-BOUNDARY-CONTENT') - arrival(decoded, 'SLOW-SHELL')).toBeGreaterThan(600);
  });

  test('COMPRESSION=off leaves compression to the proxy: the app sends identity and still streams', async () => {
    const decoded = await getDecoded(`${origin('off')}/fixtures/slow?ms=800`, 'gzip, br');
    expect(decoded.encoding).toBeUndefined();
    expect(arrival(decoded, 'SLOW-BOUNDARY-CONTENT') - arrival(decoded, 'SLOW-SHELL')).toBeGreaterThan(600);
  });
});
