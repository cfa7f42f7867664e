/** Why a render was stopped early: expected outcomes, which the page handler logs itself. */
export class ClientDisconnectedError extends Error {
  override readonly name = 'ClientDisconnectedError';
  constructor() {
    super('The client disconnected before the response was complete');
  }
}

/** `RENDER_TIMEOUT_MS` passed: for a page's `load` and render, or for an action and its `getLoadContext`. */
export class RenderTimeoutError extends Error {
  override readonly name = 'RenderTimeoutError';
  readonly timeoutMs: number;
  constructor(timeoutMs: number, what: 'render' | 'action' = 'render') {
    super(`The ${what} did not finish within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The rest of the render is not needed: a HEAD request, or the page ends in a status page. */
export class RenderNotNeededError extends Error {
  override readonly name = 'RenderNotNeededError';
  constructor(why: string) {
    super(`Render stopped: ${why}`);
  }
}

export type RenderStopReason = ClientDisconnectedError | RenderTimeoutError | RenderNotNeededError;

export function isRenderStopReason(value: unknown): value is RenderStopReason {
  return value instanceof ClientDisconnectedError || value instanceof RenderTimeoutError || value instanceof RenderNotNeededError;
}
