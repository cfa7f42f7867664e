import { useState } from 'react';
import type { PageHead } from 'react-stream-shell';
import { Label } from './label.tsx';

export const head: PageHead = { title: 'Counter' };

export function load() {
  return { greeting: 'Hello' };
}

export default function Counter({ data }: { readonly data: { readonly greeting: string } }) {
  const [clicks, setClicks] = useState(0);
  return (
    <>
      <h1>{data.greeting}</h1>
      <button type="button" id="clicks" onClick={() => setClicks(clicks + 1)}>
        <Label /> {clicks}
      </button>
    </>
  );
}
