/**
 * The sliding window a brotli stream declares in its first bits, as lgwin (WBITS, RFC 7932
 * §9.1, bits read from the least significant end): the encoder keeps a window of 2^lgwin bytes,
 * and every decoder must too.
 */
export function brotliWindowBits(stream: Uint8Array): number {
  const first = stream[0] ?? 0;
  if ((first & 0b1) === 0) return 16;
  const n = (first >> 1) & 0b111;
  if (n !== 0) return 17 + n;
  const m = (first >> 4) & 0b111;
  if (m === 1) throw new Error('a large-window stream, outside RFC 7932');
  return m === 0 ? 17 : 8 + m;
}
