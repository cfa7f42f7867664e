import type { Route } from './+types/post-once-saved.ts';

/** How many times the action ran, per `:key`, in the fixture server's process. */
const runs = new Map<string, number>();

function runsOf(key: string): number {
  return runs.get(key) ?? 0;
}

/** Counts the run: a test reads the count back with a GET of this address. */
export function action({ params }: Route.ActionContext) {
  const { key } = params;
  runs.set(key, runsOf(key) + 1);
  return { saved: true };
}

export interface PostOnceData {
  readonly runs: number;
}

export function load({ params }: Route.LoadContext): PostOnceData {
  return { runs: runsOf(params.key) };
}

/** The page shown after a post (post-once.tsx), and the count of the action's runs for a GET. */
export default function PostOnceSavedPage({ data }: Route.PageProps) {
  return (
    <main>
      <h1 id="saved">Saved</h1>
      <p>
        The action ran <span id="runs">{data.runs}</span> times.
      </p>
    </main>
  );
}
