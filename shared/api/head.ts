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

/** The text's direction, the document's `dir`. */
export type TextDirection = 'ltr' | 'rtl' | 'auto';

/** The document's language and direction (`<html lang dir>`), set by the site, a layout or a page. */
export interface DocumentLanguage {
  /** A BCP 47 tag, e.g. `fr` or `pt-BR`. Default: the site's, else `en`. */
  readonly lang?: string;
  /** Default: the site's, else none (the browser's own, left to right). */
  readonly dir?: TextDirection;
}

export interface PageHead extends DocumentLanguage {
  /** The page's own title, inside the site's title template (`Title · Site` by default). */
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
export interface LayoutHead extends DocumentLanguage {
  /** The page's title inside the section's: `%s` stands for it (`'%s · Guest book'`). */
  readonly titleTemplate?: string;
  /**
   * In place of the site's title template for the pages inside the layout (`'%s'` drops the
   * site's name after them). Default: the site's.
   */
  readonly siteTitleTemplate?: string;
  /** The title of a page inside the layout that declares none. */
  readonly title?: string;
  readonly description?: string;
  readonly robots?: string;
  readonly openGraph?: Pick<OpenGraph, 'type' | 'image'>;
}

/** A page's head with what its layouts give, the site's title template of the innermost that names one included. */
export interface PageHeadWithinLayouts extends PageHead {
  readonly siteTitleTemplate?: string;
}

/**
 * A page's head within its layouts, outermost first: each field the page leaves out comes from
 * the innermost layout that gives it, and the page's title goes into the innermost title
 * template. The site's title template still goes around it (resolveHead), the innermost
 * layout's `siteTitleTemplate` in its place.
 */
export function headWithinLayouts(layouts: readonly (LayoutHead | undefined)[], page: PageHead): PageHeadWithinLayouts {
  // Stryker disable next-line ConditionalExpression: equivalent, without layouts every field below is the page's own; this only skips the work
  if (layouts.length === 0) return page;
  const inner = <Key extends keyof LayoutHead>(key: Key): LayoutHead[Key] => layouts.findLast((head) => head?.[key] !== undefined)?.[key];
  const own = page.title === '' ? undefined : page.title;
  const template = inner('titleTemplate');
  const title = own === undefined ? inner('title') : template === undefined ? own : template.replaceAll('%s', () => own);
  const openGraph = Object.assign({}, ...layouts.map((head) => head?.openGraph), page.openGraph);
  const description = page.description ?? inner('description');
  const robots = page.robots ?? inner('robots');
  const lang = page.lang ?? inner('lang');
  const dir = page.dir ?? inner('dir');
  const siteTitleTemplate = inner('siteTitleTemplate');
  // Stryker disable ConditionalExpression: equivalent, a field left undefined and a field left out read the same in resolveHead (an empty title and an empty openGraph count as none)
  return {
    ...page,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(robots === undefined ? {} : { robots }),
    ...(lang === undefined ? {} : { lang }),
    ...(dir === undefined ? {} : { dir }),
    ...(siteTitleTemplate === undefined ? {} : { siteTitleTemplate }),
    ...(Object.keys(openGraph).length === 0 ? {} : { openGraph }),
  };
  // Stryker restore ConditionalExpression
}

/** App-wide defaults, from `defineApp({ site })`. */
export interface SiteHead {
  readonly name: string;
  readonly description?: string | undefined;
  /** Every page's title inside it: `%s` stands for the title. Default `'%s · ' + name`; `'%s'` for none. */
  readonly titleTemplate?: string | undefined;
  /** Every document's `<html lang>` unless a layout or page says otherwise. Default `en`. */
  readonly lang?: string | undefined;
  /** Every document's `<html dir>` unless a layout or page says otherwise. Default: none. */
  readonly dir?: TextDirection | undefined;
}

export interface HeadMeta {
  /** `name` for standard metadata, `property` for Open Graph. */
  readonly key: 'name' | 'property';
  readonly value: string;
  readonly content: string;
}

export interface ResolvedHead {
  readonly title: string;
  /**
   * The `<html>` element's attributes, both always there so that an in-place navigation sets
   * each (client/router.tsx): `dir` empty for none, the browser's own direction.
   */
  readonly html: { readonly lang: string; readonly dir: TextDirection | '' };
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
export function resolveHead(page: PageHeadWithinLayouts, site: SiteHead, urls: HeadUrls): ResolvedHead {
  // An empty title counts as none, in `<title>` and `og:title` alike.
  const ownTitle = page.title === '' ? undefined : page.title;
  const template = page.siteTitleTemplate ?? site.titleTemplate ?? `%s · ${site.name}`;
  const title = ownTitle === undefined ? site.name : template.replaceAll('%s', () => ownTitle);
  const html: ResolvedHead['html'] = { lang: page.lang ?? site.lang ?? 'en', dir: page.dir ?? site.dir ?? '' };
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
  return { title, html, canonical, meta };
}
