/** The enabled analytics scripts: deferred, under the request's nonce (docs/observability.md). */
export function AnalyticsScripts({ sources, nonce }: { readonly sources: readonly string[]; readonly nonce: string }) {
  return (
    <>
      {sources.map((src) => (
        <script key={src} src={src} defer nonce={nonce} />
      ))}
    </>
  );
}
