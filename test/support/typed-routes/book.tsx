import type { PageHead } from '../../../shared/api/head.ts';
import type { LoadedData } from '../../../shared/api/route-definition.ts';
import { useActionData, useParams } from '../../../shared/api/route-hooks.tsx';
import type { Route } from './+types/book.ts';

/** At both of its paths `:id` is there, a string; `:shelf` only at the second. */
export function load({ params }: Route.LoadContext) {
  return { title: `Book ${params.id.toUpperCase()}`, shelf: params.shelf ?? 'none' };
}

export function action({ params, body }: Route.ActionContext) {
  return { saved: `${params.id}: ${String(body.note)}` };
}

export function head(data: LoadedData<typeof load>, params: Route.Params): PageHead {
  return { title: `${data.title} at ${params.id} on ${params.shelf ?? 'no shelf'}` };
}

export default function BookPage({ data, params }: Route.PageProps) {
  const { id } = useParams<Route.Params>();
  const saved = useActionData<typeof action>();
  return (
    <p id="book">
      {`${data.title} on shelf ${data.shelf}, hook id ${id}, prop id ${params.id}`}
      {saved === undefined ? null : `; saved ${saved.saved}`}
    </p>
  );
}
