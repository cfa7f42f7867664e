import { request } from 'node:http';

/** A desktop Chrome: the product streams to browsers and sends whole documents to crawlers. */
export const BROWSER_HEADERS = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
} as const;

export interface Fetched {
  readonly status: number;
  readonly body: string;
}

/** One request without a body on a fresh connection, bounded by `timeoutMs`. */
export function httpGet(url: string, timeoutMs: number, method = 'GET'): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, headers: BROWSER_HEADERS, timeout: timeoutMs }, (res) => {
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
