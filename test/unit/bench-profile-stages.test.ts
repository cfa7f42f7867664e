import { describe, expect, test } from 'vitest';
import { attributeStages, parseCpuProfile, type CallFrame, type CpuProfile } from '../../scripts/bench/cpu-profile-stages.ts';

/** A frame named for the file it is in: the test's `sourceOf` reads the URL as the source. */
function frame(functionName: string, url: string): CallFrame {
  return { functionName, url, lineNumber: 0, columnNumber: 0 };
}

/**
 * A hand-made profile of one answer's stacks: (root) has Express's handle, which calls the form
 * token's HMAC (Node's crypto below it) and seroval; React writes to the socket; the collector;
 * idle. Samples 100 µs apart, so each sample's time is the delta to the next.
 */
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 8, 9, 10, 12, 13] },
    { id: 2, callFrame: frame('handle', 'dist/node_modules/router/index.js'), children: [3, 5] },
    { id: 3, callFrame: frame('formToken', '/repo/server/security/csrf.ts'), children: [4] },
    { id: 4, callFrame: frame('digest', 'node:internal/crypto/hash'), children: [] },
    { id: 5, callFrame: frame('createDataStream', '/repo/server/render/data-stream.ts'), children: [6] },
    { id: 6, callFrame: frame('crossSerializeStream', '/repo/node_modules/seroval/dist/esm/index.mjs'), children: [7] },
    { id: 7, callFrame: frame('stringify', ''), children: [] },
    { id: 8, callFrame: frame('(garbage collector)', ''), children: [] },
    { id: 9, callFrame: frame('(idle)', ''), children: [] },
    { id: 10, callFrame: frame('performWork', '/repo/node_modules/react-dom/cjs/react-dom-server.node.production.js'), children: [11] },
    { id: 11, callFrame: frame('writeGeneric', 'node:internal/stream_base_commons'), children: [] },
    // Only Node's library on the stack: nobody's to charge it to.
    { id: 12, callFrame: frame('processTicksAndRejections', 'node:internal/process/task_queues'), children: [] },
    // A resource route's `load` (renamed by the bundler) making a Response: the Response is undici's.
    { id: 13, callFrame: frame('load8', '/repo/scripts/bench/app-json-route.ts'), children: [14] },
    { id: 14, callFrame: frame('json', 'node:internal/deps/undici/undici'), children: [15] },
    { id: 15, callFrame: frame('stringify', ''), children: [] },
  ],
  startTime: 0,
  endTime: 1_200,
  // digest x3, stringify x2, GC, idle x2, writeGeneric, task queue, the Response's JSON, the load itself.
  samples: [4, 4, 4, 7, 7, 8, 9, 9, 11, 12, 15, 13],
  timeDeltas: [0, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100],
};

describe('CPU profile stages', () => {
  const attribution = attributeStages(PROFILE, (callFrame) => callFrame.url);
  const micros = Object.fromEntries(attribution.stages.map(({ stage, micros }) => [stage.id, micros]));

  test('each sample’s time goes to the nearest frame that is not Node’s library or a builtin', () => {
    // The HMAC's digest is the form token's; seroval's builtin is the serialization's.
    expect(micros['form-token']).toBe(300);
    expect(micros.serialization).toBe(200);
    // Node's socket write is its own stage, not React's that called it.
    expect(micros.writes).toBe(100);
    expect(micros['node-http']).toBe(0);
    expect(micros.react).toBe(0);
    expect(micros.gc).toBe(100);
    expect(micros.node).toBe(100);
    expect(micros.express).toBe(0);
    // The load's own time is the load's; the Response it makes, undici's.
    expect(micros.loads).toBe(100);
    expect(micros['web-objects']).toBe(100);
  });

  test('idle time is no stage’s and not in the busy total; the stages add up to it', () => {
    expect(attribution.busyMicros).toBe(1_000);
    expect(attribution.stages.reduce((sum, { micros: each }) => sum + each, 0)).toBe(1_000);
  });

  test('reads a .cpuprofile file and refuses what is not one', () => {
    expect(parseCpuProfile(JSON.stringify(PROFILE))).toEqual(PROFILE);
    expect(() => parseCpuProfile(JSON.stringify({ ...PROFILE, samples: [1] }))).toThrow('samples and timeDeltas differ');
    expect(() => parseCpuProfile('{"nodes":[]}')).toThrow('not a CPU profile');
  });
});
