import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import type { PageTelemetry, VitalReport } from '../shared/protocol/telemetry.ts';

/**
 * Loaded lazily after hydration (its own chunk), so it never weighs on the first load. It is
 * handed `send` rather than importing the sender: the bundler moves a module that this chunk
 * and the first load both import out of the first load's files into a shared chunk, which
 * every page's first load would then fetch as well.
 */
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
