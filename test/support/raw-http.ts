import { connect } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly head: string;
  readonly body: string;
}

/** Joins an HTTP/1.1 chunked body (sizes in hex, each chunk followed by CRLF). */
function dechunk(raw: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd === -1) return out;
    const size = Number.parseInt(raw.slice(at, lineEnd), 16);
    if (!Number.isFinite(size) || size === 0) return out;
    out += raw.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** Writes bytes exactly as given and reads until the server closes: no client normalises them. */
export function rawRequest(port: number, bytes: string, timeoutMs = 5_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes, 'latin1'));
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms to ${JSON.stringify(bytes.slice(0, 80))}`));
    }, timeoutMs);
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      // Skip interim answers such as "100 Continue": the final status is what counts.
      while (/^HTTP\/1\.[01] 1\d\d /.test(text)) text = text.slice(text.indexOf('\r\n\r\n') + 4);
      const split = text.indexOf('\r\n\r\n');
      const head = text.slice(0, split);
      const body = text.slice(split + 4);
      resolve({ status: Number(text.slice(9, 12)), head, body: /transfer-encoding: chunked/i.test(head) ? dechunk(body) : body });
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
