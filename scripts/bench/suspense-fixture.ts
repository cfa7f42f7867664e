/** The benchmark's streaming page: where it lives, how long its boundary waits, what it shows. */
export const SUSPENSE_PATH = '/bench/suspense';
export const SUSPENSE_DELAY_MS = 50;
/** Text of the resolved boundary; the bench checks that every server really streamed it. */
export const SUSPENSE_MARKER = 'SUSPENSE-BOUNDARY-RESOLVED';
