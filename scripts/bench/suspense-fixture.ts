/** The benchmark's streaming pages: where they live, how long their boundary waits, what it shows. */
export const SUSPENSE_PATH = '/bench/suspense';
export const SUSPENSE_DELAY_MS = 50;
/** Text of the resolved boundary; the bench checks that every server really streamed it. */
export const SUSPENSE_MARKER = 'SUSPENSE-BOUNDARY-RESOLVED';

/** The same page, its boundary reading a value that `load` deferred (settles after the same delay). */
export const DEFERRED_PATH = '/bench/deferred';
/** As long as SUSPENSE_MARKER, so the two pages differ only in where the value comes from. */
export const DEFERRED_MARKER = 'DEFERRED-BOUNDARY-RESOLVED';
/** Both pages' title. */
export const STREAMING_TITLE = 'Streaming';

/** A page whose `load` defers many values that settle together: its document and its navigation data are timed side by side (many-deferred.ts). */
export const MANY_DEFERRED_PATH = '/bench/many-deferred';
export const MANY_DEFERRED_COUNT = 20_000;
/** Text of the boundary that reads the last value. */
export const MANY_DEFERRED_MARKER = 'MANY-DEFERRED-LAST';
