/**
 * What a page says about itself in the document's `<head>` (docs/building-pages.md): title,
 * description, canonical URL, robots and Open Graph. Resolved the same way on the server
 * (first load) and in the browser (in-place navigation), so both write the same tags.
 */
export interface OpenGraph {
  readonly title?: string;
  readonly description?: string;
  /** Absolute, or a path resolved against the public origin. Default: the canonical URL. */
  readonly url?: string;
  /** Default `website`. */
  readonly type?: string;
  readonly image?: string;
}

export interface PageHead {
  /** The page's own title; the site's name follows it (`Title · Site`). */
  readonly title?: string;
  readonly description?: string;
  /**
   * Absolute, or a path resolved against the public origin. Default: the request's path on
   * the public origin; without a public origin, none (absolute URLs never come from `Host`).
   */
  readonly canonical?: string;
  /** e.g. `noindex`. Default: none, which lets the page be indexed. */
  readonly robots?: string;
  readonly openGraph?: OpenGraph;
}

/** App-wide defaults, from `createApp({ site })`. */
export interface SiteHead {
  readonly name: string;
  readonly description?: string | undefined;
}

export interface HeadMeta {
  /** `name` for standard metadata, `property` for Open Graph. */
  readonly key: 'name' | 'property';
  readonly value: string;
  readonly content: string;
}

export interface ResolvedHead {
  readonly title: string;
  readonly canonical: string | undefined;
  readonly meta: readonly HeadMeta[];
}

function absolute(url: string | undefined, origin: URL | undefined): string | undefined {
  if (url === undefined) return undefined;
  if (/^https?:\/\//i.test(url)) return url;
  return origin === undefined ? undefined : new URL(url, origin).href;
}

/** A page's head with the site's defaults filled in, as tags to write. */
export function resolveHead(page: PageHead, site: SiteHead, origin: URL | undefined, path: string): ResolvedHead {
  const title = page.title === undefined || page.title === '' ? site.name : `${page.title} · ${site.name}`;
  const description = page.description ?? site.description;
  const canonical = absolute(page.canonical ?? path, origin);
  const og = page.openGraph ?? {};
  const meta: HeadMeta[] = [];
  const add = (key: HeadMeta['key'], value: string, content: string | undefined) => {
    if (content !== undefined && content !== '') meta.push({ key, value, content });
  };
  add('name', 'description', description);
  add('name', 'robots', page.robots);
  add('property', 'og:title', og.title ?? page.title ?? site.name);
  add('property', 'og:description', og.description ?? description);
  add('property', 'og:url', absolute(og.url, origin) ?? canonical);
  add('property', 'og:type', og.type ?? 'website');
  add('property', 'og:site_name', site.name);
  add('property', 'og:image', absolute(og.image, origin));
  return { title, canonical, meta };
}
