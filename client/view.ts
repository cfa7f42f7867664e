import type { ComponentType } from 'react';
import type { EmbeddedPageData } from '../shared/protocol/page-data.ts';
import type { PageComponent, ShouldRevalidate } from '../shared/api/route-definition.ts';
import type { BranchLevel } from '../shared/views/route-tree.tsx';

/** A module of a page's branch as its entry exports it (scripts/build-client.ts): a layout's, or the page's last. */
export interface RouteModule {
  readonly default: PageComponent;
  readonly ErrorBoundary?: ComponentType;
  /** A layout's: whether its data loads again (client/router.tsx's keepable). */
  readonly shouldRevalidate?: ShouldRevalidate;
}

/** What `#root` shows: a page inside its layouts with their data, or a status view the server answered with. */
export type View =
  | { readonly key: number; readonly modules: readonly RouteModule[]; readonly page: EmbeddedPageData }
  | { readonly key: number; readonly status: number; readonly message: string; readonly digest?: string | undefined };

/** The levels a view renders (shared/api/route-hooks.tsx): each layout's module and data, then the page's. */
export function levelsOf(view: { readonly modules: readonly RouteModule[]; readonly page: EmbeddedPageData }): BranchLevel[] {
  const { modules, page } = view;
  const layouts = page.layouts ?? [];
  return modules.map((module, index) => {
    const layout = layouts[index];
    const isPage = index === modules.length - 1;
    return { id: isPage ? (page.route ?? '') : (layout?.id ?? ''), Component: module.default, ErrorBoundary: module.ErrorBoundary, data: isPage ? page.data : layout?.data };
  });
}
