import type { ComponentType } from 'react';
import type { TextDirection } from '../../shared/api/head.ts';
import { STATUS_VIEW_CSS, StatusView, type StatusViewProps } from '../../shared/views/status-view.tsx';
import { AnalyticsScripts } from '../render/analytics-scripts.tsx';
import { FAVICON_PATH } from '../static/favicon.ts';
import type { StatusPageProps } from './status-look.ts';

interface StatusDocumentProps extends StatusViewProps {
  readonly title: string;
  /** 500 only: the host its sentence names. */
  readonly host?: string | undefined;
  /** The app's stylesheets, linked (`statusPages.stylesOf`). */
  readonly stylesheets?: readonly string[] | undefined;
  /** The app's own view in place of the framework's (`statusPages.component`), without its inline style. */
  readonly View?: ComponentType<StatusPageProps> | undefined;
  /** The app's `<html lang dir>` (its `site`), as on its pages. Default `en`, and no `dir`. */
  readonly lang?: string | undefined;
  readonly dir?: TextDirection | undefined;
  /** The request's nonce, for the analytics scripts only; the style is allowed by its hash. */
  readonly nonce?: string | undefined;
  /** Analytics script URLs (docs/observability.md): the only scripts a status page may carry. */
  readonly analyticsSources: readonly string[];
}

/**
 * A complete status page: no script but analytics, `noindex`, one inline style that the status
 * answers' Content-Security-Policy allows by its sha256 hash, so the page needs no nonce
 * (docs/status-pages.md, docs/security.md); or the app's own view and stylesheet, linked from
 * `/assets/`, which the policy allows as 'self'.
 */
export function StatusDocument({ title, lang = 'en', dir, nonce, analyticsSources, host, stylesheets = [], View, ...view }: StatusDocumentProps) {
  return (
    <html lang={lang} dir={dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <link rel="icon" href={FAVICON_PATH} type="image/svg+xml" />
        {View === undefined ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the status view's own stylesheet, a constant
          <style dangerouslySetInnerHTML={{ __html: STATUS_VIEW_CSS }} />
        ) : null}
        {stylesheets.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {analyticsSources.length === 0 ? null : <AnalyticsScripts sources={analyticsSources} nonce={nonce ?? ''} />}
      </head>
      <body>
        {/* The page's one landmark: assistive technology jumps straight to it. */}
        <main>
          {View === undefined ? (
            <StatusView {...view} />
          ) : (
            <View status={view.status ?? 500} message={view.message} lang={lang} dir={dir} host={host} digest={view.digest} detail={view.detail} />
          )}
        </main>
      </body>
    </html>
  );
}
