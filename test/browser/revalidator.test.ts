import { describe, expect, test } from 'vitest';
import { fixtureSession, openHydrated } from './harness.ts';

const session = fixtureSession();

/** What page two shows at one moment: the revalidator's state and when its data was loaded. */
interface Frame {
  readonly state: string;
  readonly loadedAt: string;
}

describe('useRevalidator() in Chromium', () => {
  test('loads the page again in place: one request for its data, the address, history and a typed value kept, idle in the update that shows the new data', async () => {
    const page = await openHydrated(session, '/layouts/two');
    await page.evaluate(() => Reflect.set(window, '__sameDocument', true));
    await page.fill('#shell-input', 'still here');
    const historyLength = await page.evaluate(() => history.length);
    const before = await page.textContent('#two-loaded-at');
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.headers()['x-navigation'] === 'data') requests.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await page.evaluate(() => {
      const frames: Frame[] = [];
      Reflect.set(window, '__frames', frames);
      const record = () =>
        frames.push({ state: document.getElementById('refresh-state')?.textContent ?? '', loadedAt: document.getElementById('two-loaded-at')?.textContent ?? '' });
      const main = document.querySelector('main');
      if (main !== null) new MutationObserver(record).observe(main, { childList: true, characterData: true, subtree: true });
    });

    await page.click('#refresh');
    await expect.poll(() => page.textContent('#two-loaded-at')).not.toBe(before);
    await expect.poll(() => page.textContent('#refresh-state')).toBe('idle');

    const frames: Frame[] = await page.evaluate(() => Reflect.get(window, '__frames'));
    expect(frames[0]).toEqual({ state: 'loading', loadedAt: before });
    // Never idle with the old data once it has started: the new data and idle come together.
    expect(frames.filter((frame) => frame.state === 'idle' && frame.loadedAt === before)).toEqual([]);
    expect(frames.at(-1)?.state).toBe('idle');
    expect(requests).toEqual(['GET /layouts/two']);
    expect(await page.evaluate(() => Reflect.get(window, '__sameDocument'))).toBe(true);
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
    expect(await page.inputValue('#shell-input')).toBe('still here');
    await page.context().close();
  });
});
