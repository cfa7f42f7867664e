/**
 * Sends a small JSON report that survives the page going away: `sendBeacon` where it works,
 * else `fetch` with `keepalive`. Failures are dropped: telemetry must never break the page.
 */
export function sendReport(url: string, payload: unknown): void {
  const body = JSON.stringify(payload);
  try {
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, new Blob([body], { type: 'application/json' }))) return;
    void fetch(url, { method: 'POST', body, keepalive: true, headers: { 'Content-Type': 'application/json' } }).catch(() => undefined);
  } catch {
    // Reporting is best effort.
  }
}
