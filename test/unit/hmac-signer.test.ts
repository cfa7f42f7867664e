import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHmacSigner } from '../../server/security/hmac-signer.ts';

const FIRST = 'f'.repeat(32);
const SECOND = 's'.repeat(32);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The same signature with the last character's two spare bits flipped: Node decodes both to the same bytes. */
function respelled(signature: string): string {
  const last = ALPHABET.indexOf(signature.at(-1) ?? '');
  return signature.slice(0, -1) + (ALPHABET[last ^ 1] ?? '');
}

describe('the HMAC signer of form tokens and session cookies', () => {
  it('signs with HMAC-SHA256 under the first secret, base64url without padding', () => {
    const signer = createHmacSigner([FIRST, SECOND]);
    expect(signer.sign('text')).toBe(createHmac('sha256', FIRST).update('text').digest('base64url'));
    expect(signer.sign('text')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('verifies what any of its secrets signed, so a secret can be rotated', () => {
    const rotated = createHmacSigner([SECOND, FIRST]);
    expect(rotated.verify('text', createHmacSigner([FIRST]).sign('text'))).toBe(true);
    expect(rotated.verify('text', createHmacSigner([SECOND]).sign('text'))).toBe(true);
    expect(createHmacSigner([SECOND]).verify('text', createHmacSigner([FIRST]).sign('text'))).toBe(false);
  });

  it('refuses a signature of another text, one cut short, one padded and one spelled otherwise', () => {
    const signer = createHmacSigner([FIRST]);
    const signature = signer.sign('text');
    expect(signer.verify('text', signature)).toBe(true);
    expect(signer.verify('texts', signature)).toBe(false);
    expect(signer.verify('text', signature.slice(0, -1))).toBe(false);
    expect(signer.verify('text', `${signature}=`)).toBe(false);
    expect(signer.verify('text', '')).toBe(false);
    // Node's decoder reads the other spelling as the same bytes: compared as written, it fails.
    const other = respelled(signature);
    expect(Buffer.from(other, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(true);
    expect(signer.verify('text', other)).toBe(false);
  });

  it('needs a secret', () => {
    expect(() => createHmacSigner([])).toThrow('at least one secret');
  });
});
