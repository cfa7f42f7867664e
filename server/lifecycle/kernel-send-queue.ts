import { readFile } from 'node:fs/promises';
import { isIPv4, isIPv6, type Socket } from 'node:net';
import { endianness } from 'node:os';

/**
 * How often at most the kernel's tables are read. Reading /proc/net/tcp walks every socket of the
 * network namespace (about 10 ms for 600 sockets here), so the checks due in one second share one read.
 */
export const SEND_QUEUE_READ_INTERVAL_MS = 1_000;

/** A read waits this long for more checks: the deadlines of pipelined requests pass within milliseconds of each other. */
const GATHER_MS = 20;

const LITTLE_ENDIAN = endianness() === 'LE';

/** The 16 bytes of an IPv6 address (`::` expanded, an IPv4 tail such as `::ffff:127.0.0.1` included). */
function ipv6Bytes(address: string): number[] {
  const [head = '', tail] = (address.split('%')[0] ?? '').split('::');
  const groups = (part: string | undefined): number[] =>
    (part ?? '')
      .split(':')
      .filter((group) => group !== '')
      .flatMap((group) => (isIPv4(group) ? ipv4Groups(group) : [Number.parseInt(group, 16)]));
  const left = groups(head);
  const right = groups(tail);
  const words = tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

function ipv4Groups(address: string): number[] {
  const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number);
  return [(a << 8) | b, (c << 8) | d];
}

/**
 * An address as /proc/net/tcp{,6} prints it: each 32-bit word of the network-order address
 * printed as the host reads it, so on a little-endian machine the bytes of each word reversed.
 */
function kernelAddress(address: string, port: number): string | undefined {
  let bytes: number[];
  if (isIPv4(address)) bytes = address.split('.').map(Number);
  else if (isIPv6(address)) bytes = ipv6Bytes(address);
  else return undefined;
  let hex = '';
  for (let word = 0; word < bytes.length; word += 4) {
    const group = bytes.slice(word, word + 4);
    if (LITTLE_ENDIAN) group.reverse();
    for (const byte of group) hex += byte.toString(16).padStart(2, '0');
  }
  return `${hex.toUpperCase()}:${port.toString(16).toUpperCase().padStart(4, '0')}`;
}

interface Lookup {
  readonly table: 'tcp' | 'tcp6';
  readonly key: string;
  readonly resolve: (reading: SendQueueReading) => void;
}

/** What the kernel said of one connection. */
export interface SendQueueReading {
  /**
   * The bytes written on the connection that the kernel still holds, not yet acknowledged by
   * the client: what Node handed over but a client that stopped reading never took.
   * `undefined` where the kernel does not say (not Linux, no procfs, the connection gone).
   */
  readonly unacknowledged: number | undefined;
  /** When the read began (performance.now()): what it says holds from then on at the earliest. */
  readonly at: number;
}

/** `local remote` to the bytes the kernel still holds unacknowledged (tx_queue), for one table. */
function parseTable(text: string): Map<string, number> {
  const queues = new Map<string, number>();
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const [, local, remote, , queue] = fields;
    if (local === undefined || remote === undefined || queue === undefined) continue;
    queues.set(`${local} ${remote}`, Number.parseInt(queue.split(':')[0] ?? '', 16));
  }
  return queues;
}

async function readTable(table: 'tcp' | 'tcp6'): Promise<Map<string, number> | undefined> {
  try {
    return parseTable(await readFile(`/proc/net/${table}`, 'latin1'));
  } catch {
    // No procfs (a sandbox without it): the kernel's part cannot be seen.
    return undefined;
  }
}

export interface SendQueueReader {
  /** The kernel's send queue of `socket`, at the next read of its tables. */
  unacknowledgedBytes(socket: Socket): Promise<SendQueueReading>;
}

/**
 * Reads the kernel's send queue of connections. Node has no API for it: once an answer is
 * handed to the kernel it counts as written ('finish'), though the kernel may hold hundreds of
 * kilobytes of it for a client that never reads. Linux lists every connection's queue in
 * /proc/net/tcp; elsewhere the answer is always `undefined`.
 */
export function createSendQueueReader(intervalMs = SEND_QUEUE_READ_INTERVAL_MS): SendQueueReader {
  let waiting: Lookup[] = [];
  let scheduled = false;
  let lastReadAt = Number.NEGATIVE_INFINITY;

  async function readWaiting(): Promise<void> {
    const batch = waiting;
    waiting = [];
    const at = performance.now();
    lastReadAt = at;
    const tables = new Map<string, Map<string, number> | undefined>();
    for (const table of new Set(batch.map((lookup) => lookup.table))) tables.set(table, await readTable(table));
    scheduled = false;
    for (const lookup of batch) lookup.resolve({ unacknowledged: tables.get(lookup.table)?.get(lookup.key), at });
    if (waiting.length > 0) schedule();
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setTimeout(readWaiting, Math.max(GATHER_MS, lastReadAt + intervalMs - performance.now())).unref();
  }

  return {
    unacknowledgedBytes: function unacknowledgedBytes(socket: Socket): Promise<SendQueueReading> {
      const unknown = { unacknowledged: undefined, at: performance.now() };
      const { localAddress, localPort, remoteAddress, remotePort } = socket;
      if (process.platform !== 'linux' || localAddress === undefined || localPort === undefined || remoteAddress === undefined || remotePort === undefined) {
        return Promise.resolve(unknown);
      }
      const local = kernelAddress(localAddress, localPort);
      const remote = kernelAddress(remoteAddress, remotePort);
      if (local === undefined || remote === undefined) return Promise.resolve(unknown);
      const table = isIPv4(localAddress) ? 'tcp' : 'tcp6';
      return new Promise((resolve) => {
        waiting.push({ table, key: `${local} ${remote}`, resolve });
        schedule();
      });
    },
  };
}
