import { createServer } from 'node:net';

/** Every server the bench and the tests start listens here only. */
export const LOOPBACK = '127.0.0.1';

/** A loopback port nobody listens on right now: the kernel picks it, we release it for the child. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, LOOPBACK, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => (port === 0 ? reject(new Error('no free loopback port')) : resolve(port)));
    });
  });
}
