import { describe, expect, test } from 'vitest';
import { createDigest, fingerprintError } from '../../server/observability/digest.ts';

describe('digests', () => {
  test('are URL-safe, 96 bits, and never repeat', () => {
    const digests = new Set(Array.from({ length: 1_000 }, createDigest));
    expect(digests.size).toBe(1_000);
    for (const digest of digests) expect(digest).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });
});

describe('fingerprints', () => {
  const stack = 'Error: boom\n    at load (/app/server/x.ts:10:5)\n    at next (/app/node_modules/y.js:1:1)';

  test('are the same for the same name, message and first frame', () => {
    expect(fingerprintError('Error', 'boom', stack)).toBe(fingerprintError('Error', 'boom', `${stack}\n    at other (z.js:2:2)`));
  });

  test('differ when the name, the message or the first frame differs', () => {
    const base = fingerprintError('Error', 'boom', stack);
    expect(fingerprintError('TypeError', 'boom', stack)).not.toBe(base);
    expect(fingerprintError('Error', 'bang', stack)).not.toBe(base);
    expect(fingerprintError('Error', 'boom', stack.replace(':10:5', ':11:5'))).not.toBe(base);
  });
});
