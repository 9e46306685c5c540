import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Listening sockets opened beside the server's own, on the same address and port (SO_REUSEPORT, Linux).
 *
 * Node accepts one new connection per turn of its event loop on each listening socket. On a busy server
 * a turn takes 10–25 ms, so 200 clients connecting at once waited up to 2.5 s to be accepted — their
 * first requests timed out while the server answered the connections it already had (measured with
 * `npm run bench -- mix` on 2 cores, and with a bare Node server doing 0.15 ms of work a request). With
 * eight sockets the kernel spreads new connections over them and eight are accepted per turn: the same
 * 200 were all accepted within about 35 turns, and nothing waited more than 0.7 s.
 *
 * Each accepted connection is handed to the one HTTP server, which then owns it (timeouts, keep-alive,
 * closing on shutdown). Where the platform cannot share a port, the extra sockets fail to listen and the
 * server keeps its own.
 */
export const LISTENING_SOCKETS = 8;

export function registerAcceptors(app: FastifyInstance, count = LISTENING_SOCKETS): void {
  const extra: net.Server[] = [];
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (!address || typeof address === 'string') return;
    for (let i = 1; i < count; i++) {
      const server = net.createServer((socket) => app.server.emit('connection', socket));
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen({ port: address.port, host: address.address, reusePort: true }, resolve);
        });
      } catch (error) {
        app.log.debug({ err: error }, 'no extra listening socket (SO_REUSEPORT unavailable)');
        break;
      }
      extra.push(server);
    }
  });
  app.addHook('preClose', async () => {
    await Promise.all(extra.map((server) => new Promise((resolve) => server.close(resolve))));
  });
}

/**
 * Fails with EADDRINUSE, as a plain listen would, when something already listens on the port: two
 * servers that both share their port (reusePort) would otherwise split the connections between them.
 */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ port, host }, resolve);
  });
  await new Promise((resolve) => probe.close(resolve));
}
