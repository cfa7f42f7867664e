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

/** One response cut out of a connection's bytes, framed as RFC 9112 §6 says. */
export interface FramedResponse {
  readonly status: number;
  readonly head: string;
  /** The body, de-chunked. */
  readonly body: string;
  /** False when the connection ended before the framing said the response was over. */
  readonly complete: boolean;
}

function headerValue(head: string, name: string): string | undefined {
  const match = new RegExp(`\\r\\n${name}:[ \\t]*([^\\r\\n]*)`, 'i').exec(head);
  return match?.[1];
}

/** Reads a chunked body at `at`; undefined when the last chunk has not arrived. */
function readChunked(text: string, at: number): { body: string; end: number } | undefined {
  let body = '';
  let cursor = at;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', cursor);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(text.slice(cursor, lineEnd), 16);
    if (!Number.isFinite(size)) return undefined;
    if (size === 0) {
      const trailerEnd = text.indexOf('\r\n\r\n', lineEnd);
      return trailerEnd === -1 ? undefined : { body, end: trailerEnd + 4 };
    }
    if (lineEnd + 2 + size + 2 > text.length) return undefined;
    body += text.slice(lineEnd + 2, lineEnd + 2 + size);
    cursor = lineEnd + 2 + size + 2;
  }
}

/**
 * Splits everything a server sent on one connection into its responses, by their framing
 * (chunked, Content-Length, or until the close), so a test can count answers and see whether
 * one was written into the middle of another.
 */
export function splitResponses(text: string): FramedResponse[] {
  const responses: FramedResponse[] = [];
  let at = 0;
  while (at < text.length) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd === -1) {
      responses.push({ status: Number(text.slice(at + 9, at + 12)), head: text.slice(at), body: '', complete: false });
      break;
    }
    const head = text.slice(at, headEnd);
    const status = Number(head.slice(9, 12));
    const bodyStart = headEnd + 4;
    const length = headerValue(head, 'content-length');
    if (/chunked/i.test(headerValue(head, 'transfer-encoding') ?? '')) {
      const chunked = readChunked(text, bodyStart);
      if (chunked === undefined) {
        responses.push({ status, head, body: dechunk(text.slice(bodyStart)), complete: false });
        break;
      }
      responses.push({ status, head, body: chunked.body, complete: true });
      at = chunked.end;
    } else if (length !== undefined || (status >= 100 && status < 200) || status === 204 || status === 304) {
      const end = bodyStart + Number(length ?? 0);
      responses.push({ status, head, body: text.slice(bodyStart, end), complete: end <= text.length });
      at = end;
    } else {
      responses.push({ status, head, body: text.slice(bodyStart), complete: true });
      break;
    }
  }
  return responses;
}

/** A loopback connection the test drives by hand: writes when it likes, reads or not. */
export interface RawConnection {
  /** Everything received so far, latin1. */
  received(): string;
  write(bytes: string | Buffer): boolean;
  /** Resolves when the socket takes writes again (or has closed). */
  drained(): Promise<void>;
  /** Resolves once the socket has closed, with the milliseconds since it connected. */
  readonly closed: Promise<number>;
  /** Like `closed`, but resolves to Infinity if the socket is still open after `ms`. */
  closedWithin(ms: number): Promise<number>;
  isClosed(): boolean;
  /** Stop reading: the kernel's receive buffer fills and the server's writes stall. */
  stopReading(): void;
  /** Half-closes: the client sends nothing more (a FIN) and still reads the answer. */
  endWriting(): void;
  destroy(): void;
}

/** Connects to 127.0.0.1:`port`; errors such as a reset count as the close they are. */
export function openRawConnection(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const opened = performance.now();
    let text = '';
    let isClosed = false;
    const closed = new Promise<number>((resolveClosed) => {
      socket.on('close', () => {
        isClosed = true;
        resolveClosed(performance.now() - opened);
      });
    });
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({
        received: () => text,
        write: (bytes) => (socket.writable ? socket.write(bytes, 'latin1') : false),
        drained: () =>
          new Promise<void>((resolveDrained) => {
            if (isClosed || !socket.writableNeedDrain) resolveDrained();
            socket.once('drain', () => resolveDrained());
            socket.once('close', () => resolveDrained());
          }),
        closed,
        closedWithin: (ms) => Promise.race([closed, new Promise<number>((resolveLate) => setTimeout(resolveLate, ms, Number.POSITIVE_INFINITY).unref())]),
        isClosed: () => isClosed,
        stopReading: () => socket.pause(),
        endWriting: () => socket.end(),
        destroy: () => socket.destroy(),
      }),
    );
    socket.once('error', reject);
  });
}

/** Far more than any cap, little enough for loopback: where the server reads on, it reads all of it. */
export const ENDLESS_BYTES = 64 * 1024 * 1024;

/** Sends a chunked body without end: 64 KiB frames while the server takes them, up to `ENDLESS_BYTES` or `ms`. */
export async function sendEndlessChunks(connection: RawConnection, ms: number): Promise<void> {
  const frame = `10000\r\n${'a'.repeat(0x10000)}\r\n`;
  const stopAt = performance.now() + ms;
  for (let sent = 0; sent < ENDLESS_BYTES && !connection.isClosed() && performance.now() < stopAt; sent += frame.length) {
    if (!connection.write(frame)) await Promise.race([connection.drained(), new Promise((resolve) => setTimeout(resolve, 50))]);
  }
}
