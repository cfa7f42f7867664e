import { STATUS_VIEW_CSS, StatusView, type StatusViewProps } from '../../shared/status-view.tsx';
import { AnalyticsScripts } from '../render/analytics-scripts.tsx';
import { FAVICON_PATH } from '../static/favicon.ts';

interface StatusDocumentProps extends StatusViewProps {
  readonly title: string;
  readonly nonce: string;
  /** Analytics script URLs (docs/observability.md): the only scripts a status page may carry. */
  readonly analyticsSources: readonly string[];
}

/** A complete status page: no script but analytics, `noindex`, styles under the nonce (docs/status-pages.md). */
export function StatusDocument({ title, nonce, analyticsSources, ...view }: StatusDocumentProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <link rel="icon" href={FAVICON_PATH} type="image/svg+xml" />
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: STATUS_VIEW_CSS }} />
        <AnalyticsScripts sources={analyticsSources} nonce={nonce} />
      </head>
      <body>
        {/* The page's one landmark: assistive technology jumps straight to it. */}
        <main>
          <StatusView {...view} />
        </main>
      </body>
    </html>
  );
}
