import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a real server (PostgreSQL, Redis) that a test can cut and restore: `down()` stops
 * accepting and resets every relayed connection (the server "dies" as the client sees it), `up()` listens again on
 * the same port. The real server and the other tests using it are untouched.
 */
export interface TcpCut {
  port: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

export async function tcpCut(t: Teardown, target: { host: string; port: number }, options: { startDown?: boolean } = {}): Promise<TcpCut> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection(target);
        sockets.add(client).add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const down = async () => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  // Reserve the port once, so `up()` after a start-down comes back where the client expects it.
  await listen();
  if (options.startDown) await down();
  const cut: TcpCut = {
    get port() {
      return port;
    },
    down,
    up: () => (server ? Promise.resolve() : listen()),
    close: down,
  };
  t.teardown(() => cut.close());
  return cut;
}
