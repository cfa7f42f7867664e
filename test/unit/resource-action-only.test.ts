import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineApp } from '../../server/index.ts';
import { createTestApp } from '../../server/testing/index.ts';
import { route, type ActionContext, type ResourceModule } from '../../shared/index.ts';

/**
 * A resource route with an action and no load (a webhook, a POST endpoint): it type-checks
 * without a stub load, takes its posts, and answers GET and HEAD with 405 and `Allow: POST`.
 */

const received: string[] = [];
// No load: this module must type-check as a ResourceModule as it is.
const webhook = {
  action: ({ body }: ActionContext) => {
    received.push(String(body.event));
    return new Response(null, { status: 202 });
  },
} satisfies ResourceModule;

const app = defineApp({ routes: [route('/hooks/deploy', webhook)] });

describe('a resource route with an action alone', () => {
  test('takes a post and answers with its Response', async () => {
    const { app: server } = createTestApp(app);
    await request(server).post('/hooks/deploy').set('Sec-Fetch-Site', 'same-origin').type('form').send({ event: 'pushed' }).expect(202);
    expect(received).toEqual(['pushed']);
  });

  test.each(['get', 'head', 'put'] as const)('answers %s with 405 and Allow: POST, never the action', async (method) => {
    const { app: server } = createTestApp(app);
    const before = received.length;
    const res = await request(server)[method]('/hooks/deploy').set('Accept', 'application/json').expect(405);
    expect(res.headers.allow).toBe('POST');
    if (method !== 'head') expect(res.body).toEqual({ status: 405, message: 'Method Not Allowed.' });
    expect(received).toHaveLength(before);
  });
});
