import { describe, expect, test } from 'vitest';
import { DESKTOP_CHROME, fixtureSession } from './harness.ts';

const session = fixtureSession();

/** What the fixture's first guest form shows at one moment: its state, its pending line (formData), and whether the list has the guest. */
interface Frame {
  readonly state: string;
  readonly pending: string | null;
  readonly listed: boolean;
}

describe('fetcher.formData in Chromium (optimistic UI)', () => {
  test('the posted fields show from the submit until the page shows the action’s result, and go in the same update that brings it: never both at once', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const page = await context.newPage();
    await page.goto(`${session.server.origin}/layouts/guests`);
    await page.waitForSelector('#root[data-hydrated]', { timeout: 10_000 });
    const name = `Optimist ${Date.now()}`;
    await page.fill('#name-a', name);
    // Every state of the DOM React leaves after a commit (the observer runs once each commit is done).
    await page.evaluate((guest) => {
      const frames: Frame[] = [];
      Reflect.set(window, '__frames', frames);
      const record = () => {
        const items = [...document.querySelectorAll('#guests li')].map((item) => item.textContent);
        frames.push({
          state: document.getElementById('state-a')?.textContent ?? '',
          pending: document.getElementById('pending-a')?.textContent ?? null,
          listed: items.includes(guest),
        });
      };
      record();
      const main = document.querySelector('main');
      if (main !== null) new MutationObserver(record).observe(main, { childList: true, characterData: true, subtree: true });
    }, name);

    await page.click('#add-a');
    await page.waitForSelector(`#guests li:text-is("${name}")`);
    await expect.poll(() => page.textContent('#state-a')).toBe('idle');
    const frames: Frame[] = await page.evaluate(() => Reflect.get(window, '__frames'));

    const pending = `name: ${name} to /layouts/guests by POST`;
    // Before the submit: nothing pending, not listed. While submitting and loading: the fields
    // (the form token the runtime adds is not among them), the action and the method.
    expect(frames[0]).toEqual({ state: 'idle', pending: null, listed: false });
    expect(frames.filter((frame) => frame.state !== 'idle').every((frame) => frame.pending === pending)).toBe(true);
    expect(frames.some((frame) => frame.state === 'submitting')).toBe(true);
    expect(frames.some((frame) => frame.state === 'loading' && !frame.listed)).toBe(true);
    // The guest in the list and the pending line never on the screen together (an optimistic
    // count would count the like twice), and never neither once submitted (it would flicker back).
    expect(frames.filter((frame) => frame.listed && frame.pending !== null)).toEqual([]);
    const submitted = frames.findIndex((frame) => frame.pending !== null);
    expect(frames.slice(submitted).filter((frame) => !frame.listed && frame.pending === null)).toEqual([]);
    expect(frames.at(-1)).toEqual({ state: 'idle', pending: null, listed: true });
    await context.close();
  });
});
