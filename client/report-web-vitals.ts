import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import type { PageTelemetry, VitalReport } from '../shared/protocol/telemetry.ts';

/** Sends each of LCP, INP, CLS, FCP and TTFB once per page load; part of the telemetry chunk (page-telemetry.ts). */
export function reportWebVitals({ route, requestId }: PageTelemetry, send: (report: VitalReport) => void): void {
  const sent = new Set<string>();
  function report(metric: Metric): void {
    // Once per metric and page load, whatever web-vitals decides to re-report.
    if (sent.has(metric.name)) return;
    sent.add(metric.name);
    send({ name: metric.name, value: metric.value, rating: metric.rating, id: metric.id, route, requestId });
  }
  onLCP(report);
  onINP(report);
  onCLS(report);
  onFCP(report);
  onTTFB(report);
}
