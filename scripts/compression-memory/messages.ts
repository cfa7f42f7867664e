/** What the measured server says about its memory (bytes), now and at its sampled peaks. */
export interface ServerMemory {
  readonly heapUsed: number;
  readonly peakHeapUsed: number;
  /** RSS less V8's heap (used or not), at its sampled peak: native memory and code. */
  readonly peakOutsideHeap: number;
}

export type ServerRequest = 'memory' | 'settle';

export function isServerRequest(value: unknown): value is ServerRequest {
  return value === 'memory' || value === 'settle';
}

export function isServerMemory(value: unknown): value is ServerMemory {
  return typeof value === 'object' && value !== null && 'peakHeapUsed' in value && 'peakOutsideHeap' in value;
}

export function isPortMessage(value: unknown): value is { readonly port: number } {
  return typeof value === 'object' && value !== null && 'port' in value && typeof value.port === 'number';
}
