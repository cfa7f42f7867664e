import type { Request } from 'express';
import { NAVIGATION_HEADER, NAVIGATION_SCOPE, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';

/**
 * Whether the request is an in-place navigation asking for the data alone, in a scope it named
 * (client/router.tsx): the scope, or `undefined` for a document. One decision for everything
 * the answer's form depends on: the data answer (page-handler.tsx) and the layouts it may leave
 * out (branch-loads.ts). A document always carries every layout's data, whatever else the
 * request says.
 */
export function navigationScope(req: Request): string | undefined {
  if (req.get(NAVIGATION_HEADER) !== 'data') return undefined;
  const scope = req.get(NAVIGATION_SCOPE_HEADER);
  return scope !== undefined && NAVIGATION_SCOPE.test(scope) ? scope : undefined;
}
