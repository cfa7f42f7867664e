import type { LayoutDefinition, LoadContext } from '../../shared/api/route-definition.ts';

/** One level's `load`, started: what it returned (a promise, or the value itself). */
export type StartLoad = () => unknown;

/**
 * The loads of a branch, one after the other from the outermost layout in (docs/security.md#guards):
 * each starts only once every level above it has returned, and the first that throws (a status
 * helper, a `redirect()`, an error) stops the rest, so a layout's refusal holds for every load
 * inside it. A level whose load returns at once (most layouts' do) costs no promise and no turn
 * of the event loop; only a promise is awaited. `throwIfStopped` is asked after each await: a
 * timeout or a departed client starts nothing more.
 *
 * Settles with one result per level that ran, the failed one last; never rejects for a level.
 * Each level's deferred promises are given a handler as soon as it returns: one that rejects
 * while a level below is still loading (a layout's statistic whose database is down, before the
 * page's own load fails) would otherwise be an unhandled rejection, which ends the process.
 * What shows the value still sees the rejection (deferred-data.ts); one nobody shows is dropped.
 */
export function loadInOrder(starts: readonly StartLoad[], throwIfStopped: () => void): PromiseSettledResult<unknown>[] | Promise<PromiseSettledResult<unknown>[]> {
  const results: PromiseSettledResult<unknown>[] = [];
  const from = (first: number): PromiseSettledResult<unknown>[] | Promise<PromiseSettledResult<unknown>[]> => {
    for (let index = first; index < starts.length; index++) {
      let value: unknown;
      try {
        value = starts[index]?.();
      } catch (reason) {
        results.push({ status: 'rejected', reason });
        return results;
      }
      if (isPromiseLike(value)) {
        return Promise.resolve(value).then(
          (settled) => {
            observeRejections(settled);
            results.push({ status: 'fulfilled', value: settled });
            throwIfStopped();
            return from(index + 1);
          },
          (reason: unknown) => {
            results.push({ status: 'rejected', reason });
            return results;
          },
        );
      }
      observeRejections(value);
      results.push({ status: 'fulfilled', value });
    }
    return results;
  };
  return from(0);
}

/**
 * The layouts' loads of a route, in order, before its action or a resource route's `load`:
 * their values are not shown (the page is loaded again after an action; a resource route renders
 * no layout), only their refusal counts. Throws the first failure, as the route's own would.
 */
export async function guardLayouts(layouts: readonly LayoutDefinition[], contextOf: () => LoadContext, throwIfStopped: () => void): Promise<void> {
  // Stryker disable next-line ConditionalExpression,MethodExpression: equivalent; a shortcut, layouts without a load give fulfilled undefined results, which throw nothing
  if (!layouts.some((layout) => layout.load !== undefined)) return;
  const starts = layouts.map((layout) => () => (layout.load === undefined ? undefined : layout.load(contextOf())));
  const results = await loadInOrder(starts, throwIfStopped);
  for (const result of results) {
    if (result.status === 'rejected') throw result.reason;
    observeRejections(result.value);
  }
}

/**
 * A value a level returned that nobody shows (a layout the browser keeps, or a guard's): its
 * deferred promises are given a handler, so one that rejects later is not an unhandled rejection,
 * which would end the process. Walks what deferred data may hold (deferred-data.ts) to a few levels.
 */
export function observeRejections(value: unknown, depth = 0): void {
  if (depth > 8 || typeof value !== 'object' || value === null) return;
  if (isPromiseLike(value)) {
    Promise.resolve(value).catch(ignore);
    return;
  }
  const items = value instanceof Map ? value.values() : value instanceof Set || Array.isArray(value) ? value.values() : Object.values(value);
  for (const item of items) observeRejections(item, depth + 1);
}

function ignore(): void {}

/** Whether a load gave a promise (an async one does) rather than its value. */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as Partial<PromiseLike<unknown>> | null)?.then === 'function';
}
