import type { Client, Pool } from 'pg';
import type { Logger } from './logger';

/**
 * node-postgres emits `error` on a client whose connection drops (Postgres killed, restarted, failed
 * over, or a connection terminated by an administrator). An `error` event nobody listens to throws
 * and ends the process, so every client and pool the kit creates goes through these.
 */

/** A standalone client: its error is logged; the caller notices the dead connection on its next query. */
export function handleClientErrors<C extends Client>(client: C, log: Logger, what: string, onError?: (err: Error) => void): C {
  client.on('error', (err: Error) => {
    log.warn({ err: err.message }, `${what}: database connection lost`);
    onError?.(err);
  });
  return client;
}

/**
 * A pool: idle clients' errors are logged (the pool drops them), and every client it creates keeps a
 * listener of its own, because pg-pool removes its idle listener while a client is checked out and a
 * connection that drops then would otherwise end the process. The query in flight still fails with the
 * error, and a released broken client is discarded by the pool.
 */
export function handlePoolErrors<P extends Pool>(pool: P, log: Logger, what: string): P {
  pool.on('error', (err: Error) => log.warn({ err: err.message }, `${what}: idle database connection lost`));
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}
