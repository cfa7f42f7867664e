/**
 * Preloaded (NODE_OPTIONS=--import) into the processes of test/process/dev-mode.test.ts. The
 * write of pino's "listening" line to stdout comes back short, cut inside the word, as a write
 * to a full pipe does; pino writes the rest 200 ms later. Whoever reads the pipe gets the line
 * in two chunks.
 */
import fs from 'node:fs';

const MARK = '"msg":"listening"';
const write = fs.write;

fs.write = function shortWrite(fd, data, ...rest) {
  const callback = rest.at(-1);
  const text = typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('utf8') : undefined;
  const at = fd === 1 && text !== undefined ? text.indexOf(MARK) : -1;
  if (at === -1 || typeof callback !== 'function') return write.call(this, fd, data, ...rest);
  const head = Buffer.from(text.slice(0, at + '"msg":"list'.length), 'utf8');
  fs.writeSync(fd, head);
  setTimeout(() => callback(null, head.length), 200);
};
