import { request } from 'node:http';

/**
 * A desktop Chrome's user agent. Headless Chromium and bare clients would be taken for crawlers
 * by `isbot` and get whole documents; the product streams to browsers, so the tests of streaming,
 * the bench and the soak send this one.
 */
export const DESKTOP_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/** What a browser sends when it asks for a page: the bench's requests and its load carry these. */
export const BROWSER_HEADERS = {
  'user-agent': DESKTOP_CHROME,
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
} as const;

export interface Fetched {
  readonly status: number;
  readonly body: string;
}

/** One request without a body on a fresh connection, as a browser (with `cookie`, one that has them), bounded by `timeoutMs`. */
export function httpGet(url: string, timeoutMs: number, method = 'GET', cookie?: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const headers = cookie === undefined ? BROWSER_HEADERS : { ...BROWSER_HEADERS, cookie };
    const req = request(url, { method, agent: false, headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
