import type { Route } from './+types/author.ts';

/** `/authors{/:name}`: the name may be absent. */
export function load({ params }: Route.LoadContext) {
  return { name: params.name ?? 'anonymous' };
}

export default function AuthorPage({ data }: Route.PageProps) {
  return <p id="author">{`Author ${data.name}`}</p>;
}
