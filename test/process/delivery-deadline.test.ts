import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openRawConnection, type RawConnection } from '../support/raw-http.ts';
import { startServerProcess, type ServerProcess } from '../support/proxy-harness.ts';
import { waitFor } from '../support/build-app.ts';
import { FIXTURE_CLIENT_DIR } from '../support/fixture-server-build.ts';

const running: ServerProcess[] = [];
const connections: RawConnection[] = [];
afterEach(async () => {
  for (const connection of connections.splice(0)) connection.destroy();
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

/** The largest built client file the fixture server serves (its own client build): its answers fill the socket's buffers fast. */
function largestAsset(): string {
  const dir = join(FIXTURE_CLIENT_DIR, 'assets');
  const files = readdirSync(dir).filter((name) => name.endsWith('.js'));
  const largest = files.sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  if (largest === undefined) throw new Error(`no built client in ${dir} (run npm run build)`);
  return `/assets/${largest}`;
}

describe('the delivery deadline of the real server', () => {
  test('follows RENDER_TIMEOUT_MS: a client that pipelines and never reads is cut off after it, not after the default', async () => {
    const renderTimeoutMs = 1_500;
    const server = await startServerProcess({ RENDER_TIMEOUT_MS: String(renderTimeoutMs) });
    running.push(server);
    const connection = await openRawConnection(server.port);
    connections.push(connection);
    connection.stopReading();
    const sent = performance.now();
    connection.write(`GET ${largestAsset()} HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(30));

    const closedLine = () => server.logs.find((line) => line.msg === 'answer not delivered in time: connection closed');
    // The default deadline (10 s) would leave this wait empty.
    await waitFor(() => closedLine() !== undefined, renderTimeoutMs + 3_000, 'the delivery deadline line');
    const line = closedLine();
    expect(line?.deadlineMs).toBe(renderTimeoutMs);
    expect(Number(line?.receivedAt) - sent).toBeLessThan(renderTimeoutMs + 1_500);
  });
});
