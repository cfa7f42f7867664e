import { expect, vi, type MockInstance } from 'vitest';
import { delay, errorLines, waitFor, type TestApp } from './build-app.ts';
import { splitResponses, type FramedResponse, type RawConnection } from './raw-http.ts';

/** What came back on a raw connection the server closed, and how soon it closed it. */
export interface ClosedExchange {
  readonly closedAfterMs: number;
  readonly responses: readonly FramedResponse[];
}

/**
 * Waits for the server to close `connection` and to log the request's end, then a little more
 * for Express's last-resort handler, which runs on later turns of the event loop; returns what came back.
 */
export async function afterServerCloses(connection: RawConnection, built: TestApp): Promise<ClosedExchange> {
  const closedAfterMs = await connection.closedWithin(2_000);
  connection.destroy();
  await waitFor(() => built.logs.some((line) => line.msg === 'request completed' || line.msg === 'request aborted'), 2_000, 'the completion line');
  await delay(50);
  return { closedAfterMs, responses: splitResponses(connection.received()) };
}

/** What the process prints to stderr through console.error, as Express's last-resort handler does. */
export function watchConsoleError(): MockInstance<typeof console.error> {
  return vi.spyOn(console, 'error').mockImplementation(() => undefined);
}

/**
 * One complete status page (`status`, titled `title`) with `Connection: close`, the connection
 * closed, one completion line with that status, and nothing printed or logged as an error: the
 * request was answered once, by the app.
 */
export function expectOneClosingStatusPage(built: TestApp, { closedAfterMs, responses }: ClosedExchange, printed: MockInstance, status: number, title: string): void {
  expect(closedAfterMs).toBeLessThan(2_000);
  expect(responses.map((response) => response.status)).toEqual([status]);
  expect(responses[0]?.complete).toBe(true);
  expect(responses[0]?.head).toMatch(/\r\nConnection: close/i);
  expect(responses[0]?.body).toContain(`<title>${title}</title>`);
  expect(printed).not.toHaveBeenCalled();
  expect(errorLines(built.logs)).toEqual([]);
  expect(built.logs.filter((line) => line.msg === 'request completed').map((line) => line.status)).toEqual([status]);
}
