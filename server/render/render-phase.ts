/**
 * Where one page response stands (docs/rendering.md). The page handler keeps a single value of
 * this type and changes it only through `canEnter`'s table, so every question such as "was the
 * shell sent?", "is the render over?", "did the client go away?" has one answer in one place.
 *
 *   loading ─▶ rendering ─▶ streaming ─▶ delivering ─▶ done
 *                  │             ▲
 *                  └─▶ cut-short ┘
 *   loading, rendering, cut-short ─▶ done (Express answers, with a status page or the 500 page; or HEAD ends)
 *   loading … delivering ─▶ abandoned (the client went away, or stopped reading)
 */
export type RenderPhase =
  /** `load` runs; nothing is rendered or sent. */
  | 'loading'
  /** React renders; nothing is sent. Browsers leave at the shell, crawlers at the whole document. */
  | 'rendering'
  /**
   * The render timeout stopped a render before anything was sent: React completes the document
   * with the pending boundaries as their fallbacks, and that is sent (or, if the shell itself
   * was not ready, the shell fails and Express answers 500).
   */
  | 'cut-short'
  /** Status, headers and the shell are sent; boundaries still stream in. */
  | 'streaming'
  /** The render is complete; what it wrote is still draining to the client. */
  | 'delivering'
  /** Nothing left for the page handler: the response ended, or Express answers instead. */
  | 'done'
  /** The client went away, or stopped reading and was cut off: the render and `load` are stopped. */
  | 'abandoned';

const NEXT: Readonly<Record<RenderPhase, readonly RenderPhase[]>> = {
  loading: ['rendering', 'done', 'abandoned'],
  rendering: ['streaming', 'cut-short', 'done', 'abandoned'],
  'cut-short': ['streaming', 'done', 'abandoned'],
  streaming: ['delivering', 'abandoned'],
  delivering: ['done', 'abandoned'],
  done: [],
  abandoned: [],
};

/** Whether `from` may move to `to`; a late callback (React's, the socket's) asking for anything else is ignored. */
export function canEnter(from: RenderPhase, to: RenderPhase): boolean {
  return NEXT[from].includes(to);
}

/** Phases after which the page handler has nothing left to do, and nothing left for the timer to bound. */
export function isSettled(phase: RenderPhase): boolean {
  return phase === 'done' || phase === 'abandoned';
}
