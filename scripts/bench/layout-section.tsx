import { Link } from '../../shared/api/link.tsx';
import { Outlet, useLoaderData } from '../../shared/api/route-hooks.tsx';
import { sectionData, type SectionData } from './layouts-fixture.ts';

/** The section's title and pages; synchronous. */
export function load(): SectionData {
  return sectionData();
}

/** The inner layout of the bench's layouts page: the section's navigation beside the page; flat-page.tsx writes the same markup inline. */
export default function SectionLayout() {
  const section = useLoaderData<typeof load>();
  return (
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
      <Outlet />
    </div>
  );
}
