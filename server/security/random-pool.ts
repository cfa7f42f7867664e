import { randomFillSync } from 'node:crypto';

/**
 * Random bytes for the request path, drawn from the CSPRNG in batches, as Node's `randomUUID`
 * draws its own: one `randomFillSync` per 4 KiB instead of one per value. Each value is read
 * from the batch once and never again. A page takes two (its CSP nonce and, in an app with
 * forms, a form token for a browser that has none); one call per value cost a page some 3 % of
 * its CPU under load.
 */
const pool = Buffer.alloc(4096);
let offset = pool.length;

/** `bytes` (at most 4096) fresh random bytes, as `encoding` text. */
export function randomText(bytes: number, encoding: 'base64' | 'base64url'): string {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, refilling sooner (or on every call) hands out fresh bytes all the same, only more slowly
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const text = pool.toString(encoding, offset, offset + bytes);
  offset += bytes;
  return text;
}
