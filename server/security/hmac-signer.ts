import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs texts with HMAC-SHA256 and checks signatures: the one signer behind the form tokens
 * (csrf.ts) and the session cookies (sessions/signed-cookie.ts).
 */
export interface HmacSigner {
  /** The signature of `text` under the first secret, base64url without padding. */
  sign(text: string): string;
  /**
   * Whether one of the secrets signed `text` as `signature`. The signature is compared as
   * written, not as decoded: Node's base64url decoder skips padding and stray characters and
   * ignores the last character's spare bits, so other spellings decode to the same bytes, and a
   * changed token or cookie must not pass. The time taken depends on the lengths only.
   */
  verify(text: string, signature: string): boolean;
}

/** A signer with `secrets`: the first signs, any of them verifies, so a secret is rotated by putting the new one first. */
export function createHmacSigner(secrets: readonly string[]): HmacSigner {
  const [signingSecret] = secrets;
  if (signingSecret === undefined) throw new Error('an HMAC signer needs at least one secret');

  function signatureOf(text: string, secret: string): Buffer {
    return Buffer.from(createHmac('sha256', secret).update(text).digest('base64url'));
  }

  return {
    sign(text) {
      return createHmac('sha256', signingSecret).update(text).digest('base64url');
    },
    verify(text, signature) {
      const given = Buffer.from(signature);
      return secrets.some((secret) => {
        const expected = signatureOf(text, secret);
        return expected.length === given.length && timingSafeEqual(expected, given);
      });
    },
  };
}
