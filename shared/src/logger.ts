import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

let destination: DestinationStream | undefined;
let stdout: DestinationStream | undefined;

/**
 * This thread's JSON lines on stdout: one stream for every logger of the thread, written asynchronously
 * (lines that arrive while a write is under way go out together in the next one, so a busy service makes
 * one write per batch of lines, not one per line) and in whole lines of at most 4 KB per write (atomic on a
 * pipe, so threads sharing stdout never interleave inside a line). pino flushes it synchronously on exit.
 * A synchronous write per line cost the gateway 11% of its CPU on a plain read (node --cpu-prof, npm run bench).
 */
function stdoutDestination(): DestinationStream {
  return (stdout ??= pino.destination({ dest: 1, sync: false, minLength: 0, maxWrite: 4096 }));
}

/** Where every logger created afterwards writes (e.g. a pino-pretty stream); default: stdout, JSON lines. */
export function setLogDestination(stream: DestinationStream | undefined): void {
  destination = stream;
}

/** JSON logs (pino); request lines carry `requestId`. */
export function createLogger(name: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  const options = {
    name,
    level,
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-internal-token"]', 'password', '*.password'], censor: '[redacted]' },
  };
  return pino(options, destination ?? stdoutDestination());
}
