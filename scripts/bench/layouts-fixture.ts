/**
 * The benchmark's layouts pages: one page served inside two layouts and the same page flat,
 * element for element, so their ratio is the cost of the layout machinery alone.
 */
export const LAYOUTS_PATH = '/bench/layouts';
/** The same markup from one page and one `load`. */
export const FLAT_PATH = '/bench/flat';
/** Text of the page's own part; the bench checks that both answers carry it. */
export const LAYOUTS_MARKER = 'LAYOUTS-PAGE-CONTENT';
/** Text of the section's part, written by the section layout in one and by the page in the other. */
export const SECTION_MARKER = 'LAYOUTS-SECTION';
/** Both pages' title. */
export const LAYOUTS_TITLE = 'Layouts';

export interface SiteData {
  readonly name: string;
  readonly links: readonly { readonly href: string; readonly label: string }[];
}

export interface SectionData {
  readonly title: string;
  readonly pages: readonly { readonly href: string; readonly label: string }[];
}

export interface ContentData {
  readonly items: readonly string[];
}

/** The root layout's data: the site's name and navigation. A new object per request, as every `load` makes. */
export function siteData(): SiteData {
  return {
    name: 'Bench site',
    links: [
      { href: '/', label: 'Home' },
      { href: LAYOUTS_PATH, label: 'Layouts' },
      { href: FLAT_PATH, label: 'Flat' },
    ],
  };
}

/** The section layout's data: its title and its pages. */
export function sectionData(): SectionData {
  return {
    title: SECTION_MARKER,
    pages: [
      { href: LAYOUTS_PATH, label: 'Overview' },
      { href: `${LAYOUTS_PATH}?tab=details`, label: 'Details' },
    ],
  };
}

/** The page's own data. */
export function contentData(): ContentData {
  return { items: ['First item', 'Second item', 'Third item'] };
}
