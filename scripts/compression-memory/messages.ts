/** What the measured server says about its memory (bytes), now and at its sampled peaks. */
export interface ServerMemory {
  readonly heapUsed: number;
  /** What V8 holds for its heap, used or not. */
  readonly heapTotal: number;
  readonly external: number;
  readonly peakHeapUsed: number;
  readonly peakExternal: number;
}

export type ServerRequest = 'memory' | 'settle';

export function isServerRequest(value: unknown): value is ServerRequest {
  return value === 'memory' || value === 'settle';
}

export function isServerMemory(value: unknown): value is ServerMemory {
  return typeof value === 'object' && value !== null && 'peakHeapUsed' in value && 'peakExternal' in value;
}

export function isPortMessage(value: unknown): value is { readonly port: number } {
  return typeof value === 'object' && value !== null && 'port' in value && typeof value.port === 'number';
}
