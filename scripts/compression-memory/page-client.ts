import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { brotliWindowBits } from '../lib/brotli-window.ts';
import { DESKTOP_CHROME } from '../lib/http-get.ts';

export type PageEncoding = 'br' | 'gzip' | 'identity';

export interface PageAnswer {
  readonly status: number;
  readonly encoding: string | undefined;
  /** Bytes on the wire. */
  readonly wireBytes: number;
  /** The window a brotli answer declares (lgwin). */
  readonly brotliWindow: number | undefined;
  /** The page as the browser sees it, decoded. */
  readonly html: string;
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  return body;
}

/** One GET as a browser that accepts only `encoding`, read whole and decoded, bounded by `timeoutMs`. */
export function getPage(url: string, encoding: PageEncoding, timeoutMs: number): Promise<PageAnswer> {
  return new Promise((resolve, reject) => {
    const headers = { 'User-Agent': DESKTOP_CHROME, 'Accept-Encoding': encoding };
    const req = request(url, { agent: false, headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const contentEncoding = res.headers['content-encoding'];
        try {
          resolve({
            status: res.statusCode ?? 0,
            encoding: contentEncoding,
            wireBytes: body.length,
            brotliWindow: contentEncoding === 'br' ? brotliWindowBits(body) : undefined,
            html: decode(body, contentEncoding).toString('utf8'),
          });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url}: no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
