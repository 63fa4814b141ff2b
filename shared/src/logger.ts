import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

let destination: DestinationStream | undefined;
let stdout: DestinationStream | undefined;

/**
 * This thread's JSON lines on stdout: one stream for every logger of the thread, written asynchronously
 * once 2 KB of lines have gathered or every 250 ms, in whole lines of at most 4 KB per write (atomic on a
 * pipe, so threads sharing stdout never interleave inside a line). A warning or error is written at once;
 * pino flushes what is left synchronously when the process exits. A write per access line cost the
 * gateway 11% of its CPU and a service 4% on a plain read (node --cpu-prof under `npm run bench`).
 */
function stdoutDestination(): DestinationStream {
  return (stdout ??= pino.destination({ dest: 1, sync: false, minLength: 2048, maxWrite: 4096, periodicFlush: 250 }));
}

const silentDestination: DestinationStream = { write: () => undefined };

/** Writes what the stream holds now when a warning or worse is logged (it must not wait for the batch). */
const flushOnWarn = {
  logMethod(this: Logger, args: Parameters<Logger['info']>, method: (...a: Parameters<Logger['info']>) => void, level: number) {
    method.apply(this, args);
    if (level >= 40 && stdout && !destination) (stdout as { flush?: (cb?: (err?: Error) => void) => void }).flush?.(() => undefined);
  },
};

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
    hooks: flushOnWarn,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-internal-token"]', 'password', '*.password'], censor: '[redacted]' },
  };
  // a silent logger never writes: it opens no stdout stream (whose exit hook and flush timer would keep a
  // test file's whole module graph alive after it ends: 50–75 MB per runtime in a jest worker)
  return pino(options, destination ?? (level === 'silent' ? silentDestination : stdoutDestination()));
}
