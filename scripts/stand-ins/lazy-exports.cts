/**
 * The stand-ins' common shape (scripts/build-server.ts): an object whose `names` are getters
 * reading the real module's, which `load` brings in the first time any of them is read. `load`
 * is the stand-in's own `require` of the real module, so that import is the one the build leaves
 * alone.
 */
function lazyExports<T extends object>(load: () => T, names: readonly (keyof T & string)[]): T {
  let real: T | undefined;
  const exports = {};
  for (const name of names) {
    Object.defineProperty(exports, name, {
      enumerable: true,
      get: () => {
        real ??= load();
        return real[name];
      },
    });
  }
  return exports as T;
}

module.exports = { lazyExports };
