import { Transform } from 'node:stream';

/**
 * A resource route's own `Content-Length` (docs/responses.md#resource-routes). Node sends the
 * header as it is set and writes whatever is piped after it: a length the app got wrong would
 * make the bytes past it read as a second answer on a kept-alive connection, and a body shorter
 * than it would leave the client waiting. So a length is sent only when it is one, and the body
 * is held to it as it streams.
 */

/** One run of digits (RFC 9110, section 8.6): no sign, no list, no spaces. */
const DIGITS = /^\d+$/;

/** A `Content-Length` that is no length, or one the answer cannot meet: refused before the head is sent, so the 500 page. */
export class ContentLengthError extends Error {
  override readonly name = 'ContentLengthError';

  constructor(route: string, problem: string) {
    super(`Route ${route}: its Response ${problem}`);
  }
}

/** A body that went past, or stopped short of, the `Content-Length` already sent: the connection is cut. */
export class BodyLengthError extends Error {
  override readonly name = 'BodyLengthError';

  constructor(route: string, length: number, problem: string) {
    super(`Route ${route}: its Response declared Content-Length ${length} and its body ${problem}; the connection was cut`);
  }
}

/**
 * The `Content-Length` a resource's answer may declare: none, or a whole number of bytes its
 * body can meet. `bodiless` is an answer that writes no body whatever its head says (HEAD, 304),
 * whose length is the body a GET would have; any other answer without a body declares 0 or none.
 */
export function declaredLength(route: string, headers: Headers, hasBody: boolean, bodiless: boolean): number | undefined {
  const given = headers.get('content-length');
  if (given === null) return undefined;
  const length = DIGITS.test(given) ? Number(given) : Number.NaN;
  if (!Number.isSafeInteger(length))
    throw new ContentLengthError(route, `has Content-Length "${given}", which is no length: one whole number of bytes, or none and the body is sent chunked`);
  if (!hasBody && !bodiless && length > 0) throw new ContentLengthError(route, `has Content-Length ${length} and no body, so the client would wait for bytes that never come`);
  return length;
}

/**
 * Passes on a body of exactly `length` bytes: the chunk that would go past it is never written,
 * and a body that ends short fails as it ends. Either way the stream errors, and the answer is
 * cut, so the client can tell it is incomplete.
 */
export function holdToLength(route: string, length: number): Transform {
  let passed = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      passed += chunk.byteLength;
      if (passed > length) done(new BodyLengthError(route, length, 'went on past it'));
      else done(null, chunk);
    },
    flush(done) {
      done(passed < length ? new BodyLengthError(route, length, `ended after ${passed} bytes`) : null);
    },
  });
}
