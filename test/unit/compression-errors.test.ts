import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'express';
import { afterEach, describe, expect, test } from 'vitest';
import { compressInto } from '../../server/http/compression.ts';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe('a compressor that fails', () => {
  test.each(['br', 'gzip'] as const)('%s: cuts the answer it was writing instead of crashing the process', async (encoding) => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const server = createServer((_req, res) => {
        res.writeHead(200, { 'Content-Encoding': encoding });
        // compressInto uses only what node:http's response has.
        const compressor = compressInto(res as unknown as Response, encoding);
        compressor.write('<!DOCTYPE html><p>first part</p>');
        compressor.flush();
        setTimeout(() => compressor.destroy(new Error('zlib failed: out of memory')), 50);
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const ended = await new Promise<'aborted' | 'complete'>((resolve, reject) => {
        get({ port, host: '127.0.0.1', path: '/' }, (res) => {
          res.on('aborted', () => resolve('aborted'));
          res.on('error', () => resolve('aborted'));
          res.on('end', () => resolve(res.complete ? 'complete' : 'aborted'));
          res.resume();
        }).on('error', reject);
      });
      // The client can tell the answer is cut: it never sees a whole, ended body.
      expect(ended).toBe('aborted');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
