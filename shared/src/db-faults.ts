/**
 * Whether an error means the database cannot be reached or is restarting (not that a statement was
 * wrong): a connection refused, reset or ended, a pool that could not connect in time, or Postgres
 * shutting down / starting up / out of connections. Such failures are retried or answered 503, never
 * counted against a record (no dead letter for an outage).
 */
// "Transaction query already complete": knex ended the transaction when its connection failed under an
// earlier statement, and a later statement of the same request met it (seen with the database killed)
// 08P01 (protocol violation) is what a NUL in a statement's text earns: a bad value, not an outage
const TRANSIENT_SQLSTATE = /^(08(?!P01)|57P0[1-3]|53300|53400)/;
const TRANSIENT_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const TRANSIENT_MESSAGE =
  /Connection terminated|connection (?:is )?closed|Client has encountered a connection error|Knex: Timeout acquiring a connection|timeout exceeded when trying to connect|the database system is (?:starting up|shutting down|in recovery mode)|terminating connection due to administrator command|Connection ended unexpectedly|server closed the connection unexpectedly|Client was closed and is not queryable|Cannot use a pool after calling end|Transaction query already complete/i;

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (TRANSIENT_NODE_CODES.has(e.code) || (/^[0-9A-Z]{5}$/.test(e.code) && TRANSIENT_SQLSTATE.test(e.code)))) return true;
  if (typeof e.message === 'string' && TRANSIENT_MESSAGE.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true; // AggregateError (dual-stack connect)
  return isDatabaseUnavailable(e.cause, depth + 1);
}
