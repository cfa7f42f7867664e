import { describe, expect, test } from 'vitest';
import { NEUTRAL_STATUS_MESSAGE, PAGE_STATUS_MESSAGES, pageStatusMessage } from '../../shared/wording/page-status-messages.ts';
import { STATUS_MESSAGES, statusMessage } from '../../shared/wording/status-messages.ts';

/**
 * The browser's first load words only the statuses of a page's helpers
 * (shared/wording/page-status-messages.ts); the server and the navigation runtime word them all
 * (shared/wording/status-messages.ts). A page's status reads the same on the status page and in the browser.
 */
describe("a page's status words", () => {
  test('are those of the statuses its helpers end in, word for word as the server says them', () => {
    expect(Object.keys(PAGE_STATUS_MESSAGES)).toEqual(['401', '403', '404', '503']);
    for (const [status, message] of Object.entries(PAGE_STATUS_MESSAGES)) expect(message).toBe(statusMessage(Number(status)));
  });

  test("leave any other status to the neutral sentence, the server's for a status it does not know", () => {
    expect(pageStatusMessage(413)).toBe(NEUTRAL_STATUS_MESSAGE);
    expect(statusMessage(599)).toBe(NEUTRAL_STATUS_MESSAGE);
    expect(Object.hasOwn(STATUS_MESSAGES, 413)).toBe(true);
  });
});
