import express, { type RequestHandler } from 'express';

/**
 * Built client files: content-hashed names, so cached for a year and never revalidated.
 * `send` refuses paths that climb out of the folder however `..` is encoded; with
 * `fallthrough` those and unknown files end at the 404 page instead of a bare error.
 */
export function createStaticAssets(dir: string): RequestHandler {
  return express.static(dir, {
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    fallthrough: true,
    immutable: true,
    maxAge: '1y',
    etag: false,
    lastModified: false,
  });
}
