import type { Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';

export interface ListenSocketsOptions {
  readonly port: number;
  readonly host: string | undefined;
  readonly backlog: number;
  /** Listening sockets on the port; 1 is Node's single socket. */
  readonly sockets: number;
}

/** The listening sockets beside the server's own; closed when the server stops accepting. */
export interface ExtraListeners {
  readonly port: number;
  /**
   * Stops them accepting; resolves once the connections they took have ended. The server's own
   * `close()` does not wait for those: Node counts a connection on the socket that accepted it.
   */
  close(): Promise<void>;
}

function listenOnce(target: NetServer | Server, options: { port: number; host: string | undefined; backlog: number; reusePort: boolean }): Promise<number> {
  return new Promise((resolve, reject) => {
    target.once('error', reject);
    target.listen(options, () => {
      target.off('error', reject);
      const address = target.address();
      resolve(typeof address === 'object' && address !== null ? address.port : options.port);
    });
  });
}

/**
 * Listens on `sockets` sockets bound to one port (SO_REUSEPORT), every one handing its
 * connections to `server`. Node's event loop (libuv) accepts one connection per listening
 * socket per turn, and a turn under load takes as long as the work that became ready in it:
 * 100 ms of rendering is 10 connections a second, and a burst of a thousand waits in the
 * kernel's queue for minutes. N sockets accept N per turn, the kernel spreading new
 * connections over them.
 *
 * SO_REUSEPORT would also let a second process bind the port and share its connections: the
 * port is first bound without it, so one already in use (by anyone) fails as it always did.
 * Rejects with the listen error, as `server.listen` reports it.
 */
export async function listenOnSockets(server: Server, { port, host, backlog, sockets }: ListenSocketsOptions): Promise<ExtraListeners> {
  if (sockets <= 1) return { port: await listenOnce(server, { port, host, backlog, reusePort: false }), close: () => Promise.resolve() };
  const probe = createNetServer();
  const chosen = await listenOnce(probe, { port, host, backlog: 1, reusePort: false });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const bound = await listenOnce(server, { port: chosen, host, backlog, reusePort: true });
  const extra: NetServer[] = [];
  try {
    for (let index = 1; index < sockets; index += 1) {
      const acceptor = createNetServer(function handOver(socket: Socket) {
        // The documented way to give an HTTP server a connection it did not accept itself.
        server.emit('connection', socket);
      });
      await listenOnce(acceptor, { port: bound, host, backlog, reusePort: true });
      // A later accept error (EMFILE) is the server's, as it would be on its own socket.
      acceptor.on('error', (error) => server.emit('error', error));
      extra.push(acceptor);
    }
  } catch (error) {
    for (const acceptor of extra) acceptor.close();
    server.close();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    port: bound,
    close() {
      closed ??= Promise.all(extra.map((acceptor) => new Promise<void>((resolve) => acceptor.close(() => resolve())))).then(() => undefined);
      return closed;
    },
  };
}
