import type { ReactNode } from 'react';
import type { ResolvedHead } from '../../shared/api/head.ts';
import { FAVICON_PATH } from '../static/favicon.ts';
import { AnalyticsScripts } from './analytics-scripts.tsx';

/** A stylesheet of the page: its URL, and its text when it travels inside the document. */
export interface PageStylesheet {
  readonly href: string;
  readonly css: string | undefined;
}

interface PageDocumentProps {
  readonly head: ResolvedHead;
  readonly nonce: string;
  /** The page's stylesheets from the client build (docs/styles.md); none for a page that ships no code. */
  readonly styles?: readonly PageStylesheet[];
  /** The page's data as the first data script (server/render/data-stream.ts); only for hydrating pages. */
  readonly dataScript: string | undefined;
  /** Analytics script URLs (docs/observability.md); empty when off. */
  readonly analyticsSources?: readonly string[];
  /** Development only: the live-reload script of `npm run dev`. */
  readonly liveReloadScript?: string | undefined;
  /** What follows `#root` in the body: the deferred values' scripts (deferred-scripts.tsx). */
  readonly afterRoot?: ReactNode;
  readonly children: ReactNode;
}

/** The head tags a page declares (shared/api/head.ts), written where the document starts. */
export function HeadTags({ head }: { readonly head: ResolvedHead }) {
  return (
    <>
      <title>{head.title}</title>
      {head.meta.map(({ key, value, content }) => (key === 'name' ? <meta key={value} name={value} content={content} /> : <meta key={value} property={value} content={content} />))}
      {head.canonical === undefined ? null : <link rel="canonical" href={head.canonical} />}
    </>
  );
}

/**
 * The document around a page. React renders all of it; the client hydrates only `#root`,
 * so nothing outside it (nonce attributes, the data script) can mismatch.
 */
export function PageDocument({ head, nonce, styles = [], dataScript, analyticsSources = [], liveReloadScript, afterRoot, children }: PageDocumentProps) {
  return (
    <html lang={head.html.lang} dir={head.html.dir === '' ? undefined : head.html.dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <HeadTags head={head} />
        <link rel="icon" href={FAVICON_PATH} type="image/svg+xml" />
        {/* Before any script: the first paint waits for them, so the page never shows unstyled. */}
        {/* biome-ignore-start lint/security/noDangerouslySetInnerHtml: the styles and scripts are the server's own, written for this place (the data by seroval) */}
        {/* A small one inline, allowed by its hash; `data-href` tells the router which file it is. */}
        {styles.map(({ href, css }) =>
          css === undefined ? <link key={href} rel="stylesheet" href={href} /> : <style key={href} data-href={href} dangerouslySetInnerHTML={{ __html: css }} />,
        )}
        {dataScript === undefined ? null : <script nonce={nonce} dangerouslySetInnerHTML={{ __html: dataScript }} />}
        <AnalyticsScripts sources={analyticsSources} nonce={nonce} />
        {liveReloadScript === undefined ? null : <script nonce={nonce} dangerouslySetInnerHTML={{ __html: liveReloadScript }} />}
        {/* biome-ignore-end lint/security/noDangerouslySetInnerHtml: see above */}
      </head>
      <body>
        <div id="root">{children}</div>
        {afterRoot}
      </body>
    </html>
  );
}
