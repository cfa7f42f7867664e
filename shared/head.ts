/**
 * What a page says about itself in the document's `<head>` (docs/building-an-app.md): title,
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

/**
 * What a layout says about the head of every page inside it (docs/building-an-app.md#layouts):
 * defaults the page's own head overrides, the innermost layout's before its parents'. Fixed,
 * not from data: a layout's data is not loaded again when moving between its pages, and its
 * head must hold for each of them.
 */
export interface LayoutHead {
  /** The page's title inside the section's: `%s` stands for it (`'%s · Guest book'`). */
  readonly titleTemplate?: string;
  /** The title of a page inside the layout that declares none. */
  readonly title?: string;
  readonly description?: string;
  readonly robots?: string;
  readonly openGraph?: Pick<OpenGraph, 'type' | 'image'>;
}

/**
 * A page's head within its layouts, outermost first: each field the page leaves out comes from
 * the innermost layout that gives it, and the page's title goes into the innermost title
 * template. The site's name still follows (resolveHead).
 */
export function headWithinLayouts(layouts: readonly (LayoutHead | undefined)[], page: PageHead): PageHead {
  // Stryker disable next-line ConditionalExpression: equivalent, without layouts every field below is the page's own; this only skips the work
  if (layouts.length === 0) return page;
  const inner = <Key extends keyof LayoutHead>(key: Key): LayoutHead[Key] => layouts.findLast((head) => head?.[key] !== undefined)?.[key];
  const own = page.title === '' ? undefined : page.title;
  const template = inner('titleTemplate');
  const title = own === undefined ? inner('title') : template === undefined ? own : template.replaceAll('%s', own);
  const openGraph = Object.assign({}, ...layouts.map((head) => head?.openGraph), page.openGraph);
  const description = page.description ?? inner('description');
  const robots = page.robots ?? inner('robots');
  // Stryker disable ConditionalExpression: equivalent, a field left undefined and a field left out read the same in resolveHead (an empty title and an empty openGraph count as none)
  return {
    ...page,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(robots === undefined ? {} : { robots }),
    ...(Object.keys(openGraph).length === 0 ? {} : { openGraph }),
  };
  // Stryker restore ConditionalExpression
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

/** The head's fields that hold URLs. */
export type HeadUrlField = 'canonical' | 'openGraph.url' | 'openGraph.image';

export interface HeadUrls {
  /** The public origin, which paths are resolved against; without it a path makes no URL. */
  readonly origin: URL | undefined;
  /** The page's own absolute URL, the default canonical URL; none without a public origin. */
  readonly pageUrl: string | undefined;
  /** Hears each URL field left out because it makes no http(s) URL (`http:`, `https://`, `mailto:x`). */
  readonly onUnusable: (field: HeadUrlField) => void;
}

/** Starts with a scheme (`https:`, `http:`, `mailto:`): then it must be a URL on its own. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * A declared URL made absolute: as it is when it has a scheme, else resolved against the
 * public origin (none without one, by design). One that still makes no http(s) URL is left out
 * and reported rather than thrown: a head from data must not turn the page into a 500.
 */
function absolute(url: string | undefined, field: HeadUrlField, { origin, onUnusable }: HeadUrls): string | undefined {
  if (url === undefined) return undefined;
  const hasScheme = SCHEME.test(url);
  if (!hasScheme && origin === undefined) return undefined;
  const parsed = hasScheme ? URL.parse(url) : URL.parse(url, origin);
  if (parsed !== null && (parsed.protocol === 'https:' || parsed.protocol === 'http:')) return parsed.href;
  onUnusable(field);
  return undefined;
}

/** A page's head with the site's defaults filled in, as tags to write. */
export function resolveHead(page: PageHead, site: SiteHead, urls: HeadUrls): ResolvedHead {
  // An empty title counts as none, in `<title>` and `og:title` alike.
  const ownTitle = page.title === '' ? undefined : page.title;
  const title = ownTitle === undefined ? site.name : `${ownTitle} · ${site.name}`;
  const description = page.description ?? site.description;
  const canonical = page.canonical === undefined ? urls.pageUrl : absolute(page.canonical, 'canonical', urls);
  const og = page.openGraph ?? {};
  const meta: HeadMeta[] = [];
  const add = (key: HeadMeta['key'], value: string, content: string | undefined) => {
    if (content !== undefined && content !== '') meta.push({ key, value, content });
  };
  add('name', 'description', description);
  add('name', 'robots', page.robots);
  add('property', 'og:title', og.title ?? ownTitle ?? site.name);
  add('property', 'og:description', og.description ?? description);
  add('property', 'og:url', og.url === undefined ? canonical : absolute(og.url, 'openGraph.url', urls));
  add('property', 'og:type', og.type ?? 'website');
  add('property', 'og:site_name', site.name);
  add('property', 'og:image', absolute(og.image, 'openGraph.image', urls));
  return { title, canonical, meta };
}
