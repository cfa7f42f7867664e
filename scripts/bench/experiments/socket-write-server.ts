import { createServer } from 'node:http';

/**
 * One server of the socket-write experiment (socket-write-cost.ts): `node:http` answering a
 * fixed 404 body after spinning the CPU for SPIN_US microseconds, with either a bare head or the
 * head given in HEAD_JSON ([name, value] pairs). It reports the mean time `res.end()` took
 * (the socket write) over the answers since its last report, on SIGUSR2, to stderr.
 */
const spinUs = Number(process.env.SPIN_US ?? 0);
const body = Buffer.alloc(Number(process.env.BODY_BYTES ?? 1_408), 'x');
const given: [string, string][] = process.env.HEAD_JSON === undefined ? [] : JSON.parse(process.env.HEAD_JSON);
const head = given.length === 0 ? ['Content-Type', 'text/html; charset=utf-8'] : given.flat();
let endNs = 0n;
let answers = 0;

createServer(function answer(_req, res) {
  if (spinUs > 0) {
    const until = process.hrtime.bigint() + BigInt(Math.round(spinUs * 1_000));
    while (process.hrtime.bigint() < until);
  }
  res.writeHead(404, [...head, 'Content-Length', String(body.length)]);
  const started = process.hrtime.bigint();
  res.end(body);
  endNs += process.hrtime.bigint() - started;
  answers += 1;
}).listen(Number(process.env.PORT), '127.0.0.1');

process.on('SIGUSR2', () => {
  process.stderr.write(`end-ns ${answers === 0 ? 0 : Number(endNs / BigInt(answers))}\n`);
  endNs = 0n;
  answers = 0;
});
process.on('SIGTERM', () => process.exit(0));
