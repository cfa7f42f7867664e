import type { Request } from 'express';
import type { PageRequest } from '../../shared/api/route-definition.ts';
import type { ClientAssets } from '../render/client-assets.ts';
import type { StatusPageOptions, StatusPageSettings } from './status-pages.ts';

/**
 * The app's status page options as the pages use them: `stylesOf` becomes the stylesheets the
 * client build made for that page, and `language` is given the request as a load sees it. A path no built page has stops the start, as a page missing
 * from the build does; without a build (server-only tests) there is nothing to link.
 */
export function statusPageSettings(options: StatusPageOptions | undefined, assets: ClientAssets | undefined, pageRequest: (req: Request) => PageRequest): StatusPageSettings {
  if (options === undefined) return {};
  const { stylesOf, ...own } = options;
  const rest = { ...own, pageRequest };
  if (stylesOf === undefined || assets === undefined) return rest;
  const page = assets.routes.get(stylesOf);
  if (page === undefined) throw new Error(`statusPages.stylesOf ${stylesOf}: no page of the client build has this path (name a route with a page module, such as '/')`);
  return { ...rest, stylesheets: page.styles };
}
