import { useEffect, useState } from 'react';
import type { PageProps } from '../../../shared/api/route-definition.ts';

function Bomb(): never {
  throw new Error('thrown in the browser only');
}

/** Renders fine on the server; after hydration an effect makes it throw, and nothing handles it. */
export default function ClientThrowPage(_props: PageProps) {
  const [broken, setBroken] = useState(false);
  useEffect(() => setBroken(true), []);
  return <main>{broken ? <Bomb /> : <p id="intact">Rendered on the server</p>}</main>;
}
