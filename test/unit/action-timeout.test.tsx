import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute, type ActionContext } from '../../shared/api/route-definition.ts';
import { buildApp, errorLines, waitFor } from '../support/build-app.ts';

const SECRET = 'action-timeout-secret-0123456789-abcdef';
const RENDER_TIMEOUT_MS = 300;

/** An action that never settles, and what its signal saw. */
function hangingAction(seen: { aborted?: unknown }) {
  return ({ signal }: ActionContext) =>
    new Promise<never>(() => {
      signal.addEventListener('abort', () => (seen.aborted = signal.reason), { once: true });
    });
}

function post(app: Parameters<typeof request>[0], path: string) {
  return request(app).post(path).set('Sec-Fetch-Site', 'same-origin').set('Accept', 'text/html').type('form').send({ name: 'Ada' });
}

describe('an action is bounded by the render timeout', () => {
  test('an action that never settles is aborted through its signal, answered with the 500 page, and leaves one error line naming the route', async () => {
    const seen: { aborted?: unknown } = {};
    const { app, logs } = buildApp([defineRoute({ path: '/hang', component: () => <h1>Hang</h1>, action: hangingAction(seen) })], {
      forms: { secret: SECRET },
      pages: { renderTimeoutMs: RENDER_TIMEOUT_MS },
    });
    const started = performance.now();
    const res = await post(app, '/hang');
    const tookMs = performance.now() - started;

    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const digest = /Digest: ([\w-]+)/.exec(res.text)?.[1];
    expect(digest).toBeDefined();
    expect(tookMs).toBeGreaterThanOrEqual(RENDER_TIMEOUT_MS - 20);
    expect(tookMs).toBeLessThan(RENDER_TIMEOUT_MS + 2_000);
    expect(seen.aborted).toBeInstanceOf(Error);
    expect((seen.aborted as Error).name).toBe('RenderTimeoutError');

    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ digest, route: '/hang', err: { name: 'RenderTimeoutError' } });
    await waitFor(() => logs.some((line) => line.msg === 'request completed'), 1_000, 'the completion line');
    expect(logs.find((line) => line.msg === 'request completed')).toMatchObject({ status: 500, route: '/hang' });
  });

  test("an app's getLoadContext that never settles on a post is bounded the same way", async () => {
    const ran: string[] = [];
    const { app, logs } = buildApp([defineRoute({ path: '/ctx', component: () => <h1>Ctx</h1>, action: () => void ran.push('action') })], {
      forms: { secret: SECRET },
      pages: { renderTimeoutMs: RENDER_TIMEOUT_MS },
      getLoadContext: () => new Promise<never>(() => undefined),
    });
    const res = await post(app, '/ctx');

    expect(res.status).toBe(500);
    expect(ran).toEqual([]);
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ route: '/ctx', err: { name: 'RenderTimeoutError' } });
  });

  test('an action that settles in time is not cut: its page is shown, and nothing is logged as an error', async () => {
    const { app, logs } = buildApp(
      [
        defineRoute({
          path: '/quick',
          component: ({ actionData }: { actionData?: unknown }) => <h1>{`Saved ${String((actionData as { saved?: string } | undefined)?.saved)}`}</h1>,
          action: async () => {
            await new Promise((resolve) => setTimeout(resolve, RENDER_TIMEOUT_MS / 3));
            return { saved: 'yes' };
          },
        }),
      ],
      { forms: { secret: SECRET }, pages: { renderTimeoutMs: RENDER_TIMEOUT_MS } },
    );
    const res = await post(app, '/quick');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Saved yes');
    // The page's own timer must not fire after the answer: wait past the timeout.
    await new Promise((resolve) => setTimeout(resolve, RENDER_TIMEOUT_MS + 100));
    expect(errorLines(logs)).toEqual([]);
  });
});
