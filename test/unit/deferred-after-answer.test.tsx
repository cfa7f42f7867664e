import { Suspense, use } from 'react';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { defineRoute, type PageProps } from '../../shared/api/route-definition.ts';
import { buildApp, delay, errorLines, waitFor } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, listenForTest } from '../support/http-client.ts';
import { openRawConnection } from '../support/raw-http.ts';

afterEach(closeTestServers);

function Late({ value }: { readonly value: Promise<string> }) {
  return <p>{use(value)}</p>;
}

function LatePage({ data }: PageProps<{ readonly late: Promise<string> }>) {
  return (
    <main>
      <h1>Shell</h1>
      <Suspense fallback={<p>LATE-FALLBACK</p>}>
        <Late value={data.late} />
      </Suspense>
    </main>
  );
}

/**
 * A page whose deferred value rejects 100 ms after its load: long after a HEAD's answer, or a
 * client that left. `rejected` settles as it rejects, so a test waits for the event, not a time.
 */
function lateRejection() {
  let markRejected: () => void = () => undefined;
  const rejected = new Promise<void>((resolve) => {
    markRejected = resolve;
  });
  const built = buildApp([
    defineRoute({
      path: '/late',
      component: LatePage,
      load: () => ({
        late: delay(100).then(() => {
          markRejected();
          return Promise.reject(new Error('deferred value failed after the answer'));
        }),
      }),
    }),
  ]);
  // The server's handlers of the rejection run within a turn or two of the event loop after it.
  return { ...built, afterRejection: () => rejected.then(() => delay(50)) };
}

describe('a deferred value that settles after its answer has ended', () => {
  test('HEAD: the answer ends at the head, and the value that rejects later is not an error line', async () => {
    const { app, logs, afterRejection } = lateRejection();
    const res = await request(app).head('/late').set('User-Agent', DESKTOP_CHROME).expect(200);
    expect(res.text ?? '').toBe('');
    await afterRejection();
    // Before, a server error line came 100 ms after the answer, with a digest nobody received.
    expect(errorLines(logs)).toEqual([]);
  });

  test('a client that left: an abort at info, and the value that rejects later is not an error line', async () => {
    const { app, logs, afterRejection } = lateRejection();
    const { port } = await listenForTest(app);
    const connection = await openRawConnection(port);
    connection.write(`GET /late HTTP/1.1\r\nHost: localhost\r\nUser-Agent: ${DESKTOP_CHROME}\r\n\r\n`);
    await waitFor(() => connection.received().includes('LATE-FALLBACK'), 3_000, 'the shell');
    connection.destroy();
    await waitFor(() => logs.some((line) => line.msg === 'render aborted: client disconnected'), 3_000, 'the abort line');
    await afterRejection();
    expect(errorLines(logs)).toEqual([]);
  });

  test('a reader that stays gets the rejection, with the digest of its one error line', async () => {
    const { app, logs } = lateRejection();
    const res = await request(app).get('/late').set('User-Agent', DESKTOP_CHROME).expect(200);
    const [line] = errorLines(logs);
    expect(errorLines(logs)).toHaveLength(1);
    expect(res.text).toContain(String(line?.digest));
  });
});
