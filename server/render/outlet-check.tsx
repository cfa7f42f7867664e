import type { Request } from 'express';
import type { PageProps } from '../../shared/api/route-definition.ts';
import type { BranchLevel } from '../../shared/views/route-tree.tsx';

/** The branch to render, and what to say once it has rendered. */
export interface OutletCheck {
  readonly levels: readonly BranchLevel[];
  /** After the whole document has rendered: a warning naming the layout that rendered no `<Outlet />`. */
  report(req: Request, route: string): void;
}

/**
 * Development only: a layout that renders no `<Outlet />` drops its page without a word (its
 * `load` still runs; the screen shows the layout alone). Each level is rendered through a
 * wrapper that notes it rendered, and the first level that did not names the layout above it.
 * The wrapper renders exactly what the level renders, so the HTML the browser hydrates is the
 * same. A layout that leaves the outlet out on purpose (a sign-in form in
 * place of the page) gets the warning too: it is a hint in development, never in production.
 */
export function checkOutlets(levels: readonly BranchLevel[]): OutletCheck {
  const rendered = new Set<number>();
  const wrapped = levels.map((level, index): BranchLevel => {
    const { Component } = level;
    // biome-ignore lint/correctness/noComponentHookFactories: one wrapper per level of one server render, which React renders once; it holds no state to lose
    function Rendered(props: PageProps) {
      rendered.add(index);
      return <Component {...props} />;
    }
    return { ...level, Component: Rendered };
  });
  return {
    levels: wrapped,
    report(req, route) {
      // Levels render outermost first: the first one missing is inside the layout that left it out.
      const skipped = levels.findIndex((_, index) => !rendered.has(index));
      // None missing (-1), or nothing rendered at all (0): no layout to name.
      const layout = levels[skipped - 1];
      if (layout === undefined) return;
      req.log.warn({ route, layout: layout.id, missing: levels[skipped]?.id ?? route }, 'layout rendered no <Outlet />: what is inside it is not on the page');
    },
  };
}
