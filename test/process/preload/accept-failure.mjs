/**
 * Preloaded (NODE_OPTIONS=--import) into a server process by test/process/start-failure.test.ts.
 * On SIGUSR2, every listening server is told that accept() failed with EMFILE (no file
 * descriptors left), through the very callback libuv calls, so net emits the error exactly as
 * it would after a real failure. Running out of descriptors for real is not repeatable: libuv
 * keeps a spare one to shed such connections quietly.
 */
import net from 'node:net';
import { constants } from 'node:os';

const servers = new Set();
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function rememberServer(...args) {
  servers.add(this);
  return listen.apply(this, args);
};

process.on('SIGUSR2', function failAccept() {
  for (const server of servers) server._handle?.onconnection(-constants.errno.EMFILE);
});
