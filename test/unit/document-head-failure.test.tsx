import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { DataWithResponseInit } from '../../shared/api/answers.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { buildApp, errorLines } from '../support/build-app.ts';

/**
 * A document whose head Node refuses to write (a header value Fetch's Headers takes but HTTP
 * does not, from a hand-made `DataWithResponseInit` that `data()`'s check never saw): the 500
 * page with one error line, never a request left waiting for an answer.
 */
describe('a document head that cannot be written', () => {
  test.each([
    ['a control character in a header', { 'X-Odd': 'a\u0001b' }],
    ['a control character in a cookie', { 'Set-Cookie': 'odd=a\u0001b; Path=/' }],
  ])('%s: the 500 page at once, one error line, the value nowhere in it', async (_case, headers) => {
    const { app, logs } = buildApp([defineRoute({ path: '/odd', component: () => <main>PAGE</main>, load: () => new DataWithResponseInit({}, { headers }) })]);
    const res = await request(app).get('/odd').timeout(3_000);
    expect(res.status).toBe(500);
    expect(res.text).toContain('Digest: ');
    expect(res.text).not.toContain('PAGE');
    expect(res.headers['x-odd']).toBeUndefined();
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(res.text).toContain(String(errors[0]?.digest));
    expect(JSON.stringify(logs)).not.toContain('a\\u0001b');
  });
});
