/**
 * The look of every status and error page: status as a heading, message beside it, centred,
 * system font, light and dark scheme. Plain CSS in one string so the server can inline it
 * under the CSP nonce and the client error page can reuse it.
 */
export const STATUS_VIEW_CSS = `
:root{color-scheme:light dark;--fg:#111;--bg:#fff;--rule:rgba(0,0,0,.3)}
@media (prefers-color-scheme:dark){:root{--fg:#ededed;--bg:#0a0a0a;--rule:rgba(255,255,255,.3)}}
*{box-sizing:border-box}
body{margin:0;color:var(--fg);background:var(--bg);font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
.status{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;text-align:center;padding:1rem}
.status-line{display:flex;align-items:center;flex-wrap:wrap;justify-content:center}
.status h1{margin:0 20px 0 0;padding:0 23px 0 0;border-right:1px solid var(--rule);font-size:24px;font-weight:500;line-height:49px}
.status h2{margin:0;font-size:14px;font-weight:400;line-height:28px;max-width:40rem}
.status .digest{margin:1rem 0 0;font-size:13px;opacity:.8;font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
.status pre{margin:1.5rem 0 0;max-width:90vw;overflow:auto;text-align:left;font-size:12px}
`;

export interface StatusViewProps {
  /** Shown as the heading; omitted for application-error pages, which say it in words. */
  readonly status?: number;
  readonly message: string;
  readonly digest?: string | undefined;
  /** Development only: the error's message and stack. */
  readonly detail?: string | undefined;
}

export function StatusView({ status, message, digest, detail }: StatusViewProps) {
  return (
    <div className="status">
      <div className="status-line">
        {/* Without a status to head it, the page still has its one top heading, for screen readers. */}
        {status === undefined ? <h1 className="sr-only">Application error</h1> : <h1>{status}</h1>}
        <h2>{message}</h2>
      </div>
      {digest === undefined ? null : <p className="digest">Digest: {digest}</p>}
      {detail === undefined ? null : <pre>{detail}</pre>}
    </div>
  );
}

/** The wording of docs/status-pages.md for the application-error page, on either side. */
export function applicationErrorMessage(side: 'server' | 'client', host: string): string {
  const where = side === 'server' ? 'server logs' : 'browser console';
  return `Application error: a ${side}-side exception has occurred while loading ${host} (see the ${where} for more information).`;
}
