import { useEffect, useState } from 'react';
import type { PageProps } from '../../../../shared/api/route-definition.ts';

/** A component that loads a server module later, with `import()`: the build must refuse it, naming the page. */
export default function ServerDynamicImportPage(_props: PageProps) {
  const [count, setCount] = useState(0);
  useEffect(() => {
    void import('../lib/guestbook.server.ts').then(({ readEntries }) => setCount(readEntries().length));
  }, []);
  return <p>{count}</p>;
}
