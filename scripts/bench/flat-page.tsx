import type { PageHead } from '../../shared/api/head.ts';
import { Link } from '../../shared/api/link.tsx';
import { useLoaderData } from '../../shared/api/route-hooks.tsx';
import { contentData, LAYOUTS_MARKER, LAYOUTS_TITLE, sectionData, siteData, type ContentData, type SectionData, type SiteData } from './layouts-fixture.ts';

export const head: PageHead = { title: LAYOUTS_TITLE };

export interface FlatData {
  readonly site: SiteData;
  readonly section: SectionData;
  readonly content: ContentData;
}

/** The three levels' data from one `load`. */
export function load(): FlatData {
  return { site: siteData(), section: sectionData(), content: contentData() };
}

/**
 * The layouts page with no layout: the root layout's and the section layout's markup written
 * here, element for element, around the page's own (layout-root.tsx, layout-section.tsx,
 * layouts-page.tsx). The bench checks that both answers render the same markup.
 */
export default function FlatPage() {
  const { site, section, content } = useLoaderData<typeof load>();
  return (
    <div className="bench-site">
      <header className="bench-header">
        <p className="bench-name">{site.name}</p>
        <nav aria-label="Site">
          <ul>
            {site.links.map((link) => (
              <li key={link.href}>
                <Link href={link.href}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <div className="bench-section">
        <aside aria-label="Section">
          <h2>{section.title}</h2>
          <ul>
            {section.pages.map((page) => (
              <li key={page.href}>
                <Link href={page.href}>{page.label}</Link>
              </li>
            ))}
          </ul>
        </aside>
        <main className="app-main">
          <h1>{LAYOUTS_TITLE}</h1>
          <p>{LAYOUTS_MARKER}</p>
          <ul>
            {content.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </main>
      </div>
    </div>
  );
}
