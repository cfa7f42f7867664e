import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { fixtureSession, openHydrated } from './harness.ts';

const session = fixtureSession();

/** What the guest list page shows at one moment: the text of the elements watched (null when absent), and whether the list has the guest. */
interface Frame {
  readonly texts: Readonly<Record<string, string | null>>;
  readonly listed: boolean;
}

/**
 * Records every state of the DOM React leaves after a commit (the observer runs once each commit
 * is done), from now on: the text of the elements with these ids, and whether the list has
 * `guest`. The returned function reads them.
 */
async function recordFrames(page: Page, ids: readonly string[], guest: string): Promise<() => Promise<Frame[]>> {
  await page.evaluate(
    ([watched, name]) => {
      const frames: Frame[] = [];
      Reflect.set(window, '__frames', frames);
      const record = () =>
        frames.push({
          texts: Object.fromEntries(watched.map((id) => [id, document.getElementById(id)?.textContent ?? null])),
          listed: [...document.querySelectorAll('#guests li')].some((item) => item.textContent === name),
        });
      record();
      const main = document.querySelector('main');
      if (main !== null) new MutationObserver(record).observe(main, { childList: true, characterData: true, subtree: true });
    },
    [ids, guest] as const,
  );
  return () => page.evaluate(() => Reflect.get(window, '__frames'));
}

describe('fetcher.formData, useFetchers() and keys in Chromium (optimistic UI)', () => {
  test('the posted fields show from the submit until the page shows the action’s result, and go in the same update that brings it: never both at once', async () => {
    const page = await openHydrated(session, '/layouts/guests');
    const name = `Optimist ${Date.now()}`;
    await page.fill('#name-a', name);
    const recorded = await recordFrames(page, ['state-a', 'pending-a'], name);

    await page.click('#add-a');
    await page.waitForSelector(`#guests li:text-is("${name}")`);
    await expect.poll(() => page.textContent('#state-a')).toBe('idle');
    const frames = (await recorded()).map(({ texts, listed }) => ({ state: texts['state-a'], pending: texts['pending-a'], listed }));

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
    await page.context().close();
  });
  test('useFetchers() lists a fetcher under way, with its fields, where its form is not, until the page shows its result', async () => {
    const page = await openHydrated(session, '/layouts/guests');
    expect(await page.textContent('#in-flight')).toBe('0');
    const name = `Elsewhere ${Date.now()}`;
    await page.fill('#name-a', name);
    const recorded = await recordFrames(page, ['in-flight', 'pending-guests'], name);

    await page.click('#add-a');
    await page.waitForSelector(`#guests li:text-is("${name}")`);
    await expect.poll(() => page.textContent('#state-a')).toBe('idle');
    const frames = (await recorded()).map(({ texts, listed }) => ({ count: texts['in-flight'], pending: texts['pending-guests'], listed }));
    expect(frames.some((frame) => frame.count === '1' && frame.pending === name && !frame.listed)).toBe(true);
    // From the submit on, the guest is pending or listed, never both, never neither.
    const from = frames.findIndex((frame) => frame.pending === name);
    expect(from).toBeGreaterThanOrEqual(0);
    expect(frames.slice(from).filter((frame) => (frame.pending === name) === frame.listed)).toEqual([]);
    expect(frames.at(-1)).toEqual({ count: '0', pending: '', listed: true });
    await page.context().close();
  });

  test('two components with one key share one fetcher: the other sees its states and its data', async () => {
    const page = await openHydrated(session, '/layouts/guests');
    const name = `Shared ${Date.now()}`;
    await page.fill('#name-b', name);
    await page.evaluate(() => {
      const seen: string[] = [];
      Reflect.set(window, '__shared', seen);
      const element = document.getElementById('shared-state');
      if (element !== null) new MutationObserver(() => seen.push(element.textContent ?? '')).observe(element, { childList: true, characterData: true, subtree: true });
    });
    await page.click('#add-b');
    await page.waitForSelector(`#guests li:text-is("${name}")`);
    await expect.poll(() => page.evaluate(() => Reflect.get(window, '__shared'))).toEqual(['submitting', 'loading', 'idle']);
    expect(await page.textContent('#shared-added')).toBe(name);
    expect(await page.textContent('#added-b')).toBe(`${name} at a date`);
    // Form a's fetcher has no key: it stayed out of it.
    expect(await page.textContent('#state-a')).toBe('idle');
    expect(await page.$('#added-a')).toBeNull();
    await page.context().close();
  });
});
