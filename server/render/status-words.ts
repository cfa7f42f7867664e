import type { Request } from 'express';

/**
 * The words of `status` in the request's language, as its status page says them (the app's,
 * docs/status-pages.md#the-apps-choices): what a route's boundary (`statusText`), its title and
 * a late status's view show inside a page. The status pages make it (server/errors/status-pages.ts).
 */
export type StatusWords = (req: Request, status: number) => string;
