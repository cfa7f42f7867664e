import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineApp } from '../../server/index.ts';
import { createTestApp } from '../../server/testing/index.ts';
import { route, type ResourceModule } from '../../shared/index.ts';

/**
 * A resource route whose `load` returns a `Response` it already read (a proxied upstream answer
 * whose body it logged, say): there is nothing left to send, so the answer is the 500 page with its
 * digest, and the one error line names the route and why, with the same digest.
 */
const readFirst = {
  load: async () => {
    const upstream = new Response('{"from":"upstream"}', { headers: { 'Content-Type': 'application/json' } });
    await upstream.text();
    return upstream;
  },
} satisfies ResourceModule;

const app = defineApp({ routes: [route('/api/relayed', readFirst)] });

describe('a resource load returning a Response whose body was read', () => {
  test('gets the 500 page and one error line naming it, with the page digest', async () => {
    const { app: server, logs } = createTestApp(app);
    const res = await request(server).get('/api/relayed').expect(500);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<title>500: Internal Server Error.</title>');
    expect(res.text).not.toContain('upstream');
    const digest = /Digest: ([A-Za-z0-9_-]+)/.exec(res.text)?.[1];
    expect(digest).toBeDefined();
    const errors = logs.filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      digest,
      route: '/api/relayed',
      err: { name: 'NotAResponseError', message: expect.stringContaining('a Response that cannot be sent (Response.error(), or a body already read)') },
    });
  });
});
