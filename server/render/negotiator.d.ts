/**
 * The part of `negotiator` (Express's own content negotiation) that the server uses. Its
 * community types predate the `preferred` option that breaks ties between equal weights.
 */
declare module 'negotiator' {
  import type { IncomingMessage } from 'node:http';

  export default class Negotiator {
    constructor(request: Pick<IncomingMessage, 'headers'>);
    encoding<T extends string>(available: readonly T[], options?: { readonly preferred?: readonly T[] }): T | undefined;
  }
}
