import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, type HttpHarness } from '../../test/http.ts';
import { assertPortFree, LISTENING_SOCKETS } from './acceptors.ts';

/** Listening TCP sockets on a port, from /proc (Linux). */
function listeningSockets(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => {
      const [, local, , state] = line.trim().split(/\s+/);
      return local?.endsWith(`:${hex}`) && state === '0A';
    }).length;
}

/** One request on a connection of its own; resolves with the status. */
function getOnNewConnection(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

describe.skipIf(!fs.existsSync('/proc/net/tcp'))('the server listens on several sockets of one port', () => {
  let h: HttpHarness;
  let port: number;
  beforeAll(async () => {
    h = await createHttpHarness('sqlite');
    await h.app.listen({ port: 0, host: '127.0.0.1', reusePort: true } as never);
    port = (h.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => h?.close());

  it('opens the extra sockets, serves connections through every one, and closes them all', async () => {
    // Fastify runs onListen hooks after listen() has resolved.
    await expect.poll(() => listeningSockets(port)).toBe(LISTENING_SOCKETS);
    // The kernel spreads new connections over the sockets: each is answered by the one server.
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () => getOnNewConnection(port, '/api/health')),
    );
    expect(statuses).toEqual(Array.from({ length: 40 }, () => 200));
    // A second server on the same port is refused, as without shared sockets.
    await expect(assertPortFree(port, '127.0.0.1')).rejects.toThrow(/EADDRINUSE/);
    await h.app.close();
    await assertPortFree(port, '127.0.0.1');
    expect(listeningSockets(port)).toBe(0);
  });
});
