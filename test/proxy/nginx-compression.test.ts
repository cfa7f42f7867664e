import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/proxy-harness.ts';
import { freePort } from '../../scripts/lib/loopback.ts';
import { arrival, getDecoded } from '../support/http-client.ts';
import { startNginx, type RunningNginx } from './nginx.ts';

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
