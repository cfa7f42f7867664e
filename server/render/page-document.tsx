import type { ReactNode } from 'react';
import type { ResolvedHead } from '../../shared/head.ts';
import { STATUS_VIEW_CSS } from '../../shared/status-view.tsx';
import { FAVICON_PATH } from '../static/favicon.ts';
import { AnalyticsScripts } from './analytics-scripts.tsx';

/** The shell's own look; the status view's rules come along for the client error page. */
const PAGE_CSS = `${STATUS_VIEW_CSS}
.app-header{padding:1rem 1.5rem;border-bottom:1px solid var(--rule)}
.app-name{color:inherit;font-weight:600;text-decoration:none}
.app-main{max-width:48rem;margin:0 auto;padding:2rem 1.5rem;line-height:1.5}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
html.nav-pending::before{content:"";position:fixed;top:0;left:0;z-index:9;height:3px;width:100%;background:currentColor;transform-origin:left;animation:nav-progress 8s cubic-bezier(.1,.7,.2,1) forwards}
@keyframes nav-progress{from{transform:scaleX(.05)}to{transform:scaleX(.95)}}
@media (prefers-reduced-motion:reduce){html.nav-pending::before{animation:none;transform:scaleX(.5)}}
`;

interface PageDocumentProps {
  readonly head: ResolvedHead;
  readonly nonce: string;
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

/** The head tags a page declares (shared/head.ts), written where the document starts. */
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
export function PageDocument({ head, nonce, dataScript, analyticsSources = [], liveReloadScript, afterRoot, children }: PageDocumentProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <HeadTags head={head} />
        <link rel="icon" href={FAVICON_PATH} type="image/svg+xml" />
        {/* biome-ignore-start lint/security/noDangerouslySetInnerHtml: the stylesheet and scripts are the server's own, written for this place (the data by seroval) */}
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: PAGE_CSS }} />
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
