import http, { type RequestListener } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';

export interface HttpListener {
  server: http.Server;
  port: number;
  /** stops accepting, lets in-flight requests finish, destroys what is left after `graceMs` */
  close(graceMs: number): Promise<void>;
}

/** Listens with keep-alive longer than typical client pools, so a reused socket is never closed under a request. */
export async function listenHttp(handler: RequestListener, port: number, host: string): Promise<HttpListener> {
  const server = http.createServer(handler);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, graceMs);
        timer.unref();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

/** A port free right now on loopback (tests, benchmarks). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
