import type { PageProps } from '../../../../shared/api/route-definition.ts';

export function load() {
  return { greeting: 'hello' };
}

/** The page's component, exported by name only: without a default export the module would be a resource route. */
export function NamedComponentPage({ data }: PageProps<{ readonly greeting: string }>) {
  return <p>{data.greeting}</p>;
}
