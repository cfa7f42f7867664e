import { STATUS_VIEW_CSS, StatusView, type StatusViewProps } from '../shared/status-view.tsx';
import { FAVICON_PATH } from './favicon.ts';

interface StatusDocumentProps extends StatusViewProps {
  readonly title: string;
  readonly nonce: string;
}

/** A complete status page: no script, `noindex`, styles under the nonce (SPEC §4). */
export function StatusDocument({ title, nonce, ...view }: StatusDocumentProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <link rel="icon" href={FAVICON_PATH} type="image/svg+xml" />
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: STATUS_VIEW_CSS }} />
      </head>
      <body>
        <StatusView {...view} />
      </body>
    </html>
  );
}
