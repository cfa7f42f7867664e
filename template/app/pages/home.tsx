import { useState } from 'react';
import type { PageHead } from 'react-stream-shell';
// Its types from the route table (react-stream-shell typegen): `params` typed from its path.
import type { Route } from './+types/home.ts';

export const head: PageHead = { title: 'Home' };

/** Runs on the server only; what it returns reaches the page. `?fail` shows what a server error looks like. */
export function load({ searchParams }: Route.LoadContext) {
  if (searchParams.has('fail')) throw new Error('the home page was asked to fail');
  return { greeting: 'Hello from the server.' };
}

export default function Home({ data }: Route.PageProps) {
  const [clicks, setClicks] = useState(0);
  return (
    <>
      <h1>{data.greeting}</h1>
      <button type="button" id="clicks" onClick={() => setClicks(clicks + 1)}>
        Clicked {clicks}
      </button>
    </>
  );
}
