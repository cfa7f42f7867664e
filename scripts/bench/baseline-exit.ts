/**
 * A baseline answers the bench's stop (SIGTERM) by exiting. Node writes its compile cache
 * (`NODE_COMPILE_CACHE`) only as a process exits; one that SIGTERM ends outright never writes it,
 * and its cold starts would all compile from scratch while the product's read its cache.
 */
export function exitOnStop(): void {
  process.once('SIGTERM', function exitOnSigterm() {
    process.exit(0);
  });
}
