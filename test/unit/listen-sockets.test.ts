import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { listenOnSockets, type ExtraListeners } from '../../server/lifecycle/listen-sockets.ts';

const HOST = '127.0.0.1';
const opened: { server: Server; extra?: ExtraListeners }[] = [];
const clients: Socket[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const { server, extra } of opened.splice(0)) {
    await extra?.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function okServer(): Server {
  const server = createServer((_req, res) => res.end('ok'));
  opened.push({ server });
  return server;
}

/**
 * Turns of the event loop until the server has taken `count` connections after a long turn:
 * the connections arrive while the loop is blocked, as they do under load.
 */
async function turnsToAccept(sockets: number, count: number): Promise<number> {
  const server = okServer();
  let accepted = 0;
  server.on('connection', () => {
    accepted += 1;
  });
  const extra = await listenOnSockets(server, { port: 0, host: HOST, backlog: 511, sockets });
  opened[opened.length - 1] = { server, extra };
  // Issued now, completed by the kernel during the busy turn below; accepted only after it.
  const connecting = Array.from({ length: count }, () => {
    const socket = connect(extra.port, HOST);
    clients.push(socket);
    return socket;
  });
  await Promise.resolve();
  const end = performance.now() + 100;
  while (performance.now() < end) {
    // A long turn of the event loop.
  }
  let turns = 0;
  await new Promise<void>((resolve) => {
    const turn = () => {
      turns += 1;
      if (accepted >= count || turns > 10 * count) resolve();
      else setImmediate(turn);
    };
    setImmediate(turn);
  });
  expect(accepted).toBe(count);
  expect(connecting).toHaveLength(count);
  return turns;
}

describe('listening on several sockets', () => {
  test('serves requests on the port, whichever socket took the connection', async () => {
    const server = okServer();
    const extra = await listenOnSockets(server, { port: 0, host: HOST, backlog: 511, sockets: 4 });
    opened[opened.length - 1] = { server, extra };
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`http://${HOST}:${extra.port}/`, { headers: { connection: 'close' } }).then((res) => res.text())));
    expect(answers).toEqual(Array.from({ length: 20 }, () => 'ok'));
  });

  test('accepts a burst after a long turn in a few turns, where one socket takes one connection per turn', async () => {
    const one = await turnsToAccept(1, 32);
    const sixteen = await turnsToAccept(16, 32);
    expect(one).toBeGreaterThanOrEqual(32);
    expect(sixteen).toBeLessThanOrEqual(12);
  });

  test('fails with EADDRINUSE on a port another server listens on, as a single socket would', async () => {
    const first = okServer();
    const extra = await listenOnSockets(first, { port: 0, host: HOST, backlog: 511, sockets: 4 });
    opened[opened.length - 1] = { server: first, extra };
    const second = createServer();
    const error = await listenOnSockets(second, { port: extra.port, host: HOST, backlog: 511, sockets: 4 }).catch((caught: NodeJS.ErrnoException) => caught);
    expect(error).toMatchObject({ code: 'EADDRINUSE' });
    expect(second.listening).toBe(false);
  });

  test('close() with the server’s own close leaves nothing listening on the port', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    const extra = await listenOnSockets(server, { port: 0, host: HOST, backlog: 511, sockets: 4 });
    void extra.close();
    await new Promise((resolve) => server.close(resolve));
    const refused = await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<string | undefined>((resolve) => {
            const socket = connect(extra.port, HOST, () => {
              socket.destroy();
              resolve('connected');
            });
            socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code));
          }),
      ),
    );
    expect(refused).toEqual(Array.from({ length: 8 }, () => 'ECONNREFUSED'));
  });
});
