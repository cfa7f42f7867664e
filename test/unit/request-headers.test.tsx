import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineApp } from '../../server/index.ts';
import { createTestApp } from '../../server/testing/index.ts';
import { route, type LoadContext } from '../../shared/index.ts';

/**
 * `request.headers` as a page's load and the app's context see it: Fetch's reading (names in any
 * case, repeats joined), read-only as a Fetch `Request`'s, and iterable into a `Headers` to pass on.
 */
function Shown({ data }: { readonly data: unknown }) {
  return <pre id="shown">{JSON.stringify(data)}</pre>;
}

function reads({ request: { headers } }: LoadContext) {
  let change = 'allowed';
  try {
    headers.set('x-forged', '1');
  } catch (error) {
    change = error instanceof TypeError ? 'refused' : 'other';
  }
  return {
    agent: headers.get('User-Agent'),
    lower: headers.get('x-trace'),
    upper: headers.get('X-TRACE'),
    missing: headers.get('x-missing'),
    has: headers.has('X-Trace'),
    hasMissing: headers.has('x-missing'),
    change,
    // Passed on as fetch would take it: a Headers of every entry.
    copied: new Headers(headers).get('x-trace'),
    names: [...headers.keys()].filter((name) => name.startsWith('x-')),
    forged: headers.get('x-forged'),
  };
}

const app = defineApp({ routes: [route('/headers', { default: Shown, load: reads })] });

describe("a page's request.headers", () => {
  test('reads as Fetch reads, refuses a change, and copies whole', async () => {
    const { app: server } = createTestApp(app);
    const res = await request(server).get('/headers').set('User-Agent', 'probe/1').set('X-Trace', 'abc').expect(200);
    const shown = JSON.parse(/<pre id="shown">([^<]*)<\/pre>/.exec(res.text)?.[1]?.replaceAll('&quot;', '"') ?? 'null');
    expect(shown).toEqual({
      agent: 'probe/1',
      lower: 'abc',
      upper: 'abc',
      missing: null,
      has: true,
      hasMissing: false,
      change: 'refused',
      copied: 'abc',
      names: ['x-trace'],
      forged: null,
    });
  });
});
