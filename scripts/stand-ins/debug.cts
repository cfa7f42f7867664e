/**
 * What the server bundle's Express, router, body-parser, finalhandler and send get for `debug`
 * (scripts/build-server.ts swaps this file in for every import of it but the one below). The
 * real module loads `tty` and `supports-color` and reads the environment as it loads, a few
 * milliseconds of every cold start, for lines that are off unless `DEBUG` names them. So a
 * namespace made while `DEBUG` is set comes from the real module, and `DEBUG=express:*` prints
 * what Express documents; without `DEBUG`, each namespace is a function that does nothing, as
 * the real one's would.
 */
interface Debugger {
  (...args: unknown[]): void;
  readonly namespace: string;
  enabled: boolean;
  extend(namespace: string, delimiter?: string): Debugger;
}

type CreateDebug = (namespace: string) => Debugger;

function createDebug(namespace: string): Debugger {
  if (process.env.DEBUG) {
    // The plugin leaves this import alone, so esbuild bundles the real module here.
    return (require('debug') as CreateDebug)(namespace);
  }
  return Object.assign(function debug(): void {}, {
    namespace,
    enabled: false,
    extend: (sub: string, delimiter = ':') => createDebug(`${namespace}${delimiter}${sub}`),
  });
}

module.exports = createDebug;
