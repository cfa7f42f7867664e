import { useEffect, useState } from 'react';
import type { PageProps } from '../../../../shared/api/route-definition.ts';

/** `import()` of a template: esbuild bundles every file it can match, a server module among them; no import text names one. */
export default function ServerTemplateImportPage({ params }: PageProps) {
  const [marker, setMarker] = useState('');
  useEffect(() => {
    void import(`../lib/${String(params.name)}.server.ts`).then((module: { SERVER_MODULE_MARKER: string }) => setMarker(module.SERVER_MODULE_MARKER));
  }, [params.name]);
  return <p>{marker}</p>;
}
