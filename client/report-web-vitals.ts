import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import { VITALS_ENDPOINT, type TelemetrySettings, type VitalReport } from '../shared/telemetry.ts';
import { sendReport } from './send-beacon.ts';

/** Loaded lazily after hydration (its own chunk), so it never weighs on the first load. */
export function reportWebVitals({ route, requestId }: TelemetrySettings): void {
  const sent = new Set<string>();
  function send(metric: Metric): void {
    // Once per metric and page load, whatever web-vitals decides to re-report.
    if (sent.has(metric.name)) return;
    sent.add(metric.name);
    const report: VitalReport = { name: metric.name, value: metric.value, rating: metric.rating, id: metric.id, route, requestId };
    sendReport(VITALS_ENDPOINT, report);
  }
  onLCP(send);
  onINP(send);
  onCLS(send);
  onFCP(send);
  onTTFB(send);
}
