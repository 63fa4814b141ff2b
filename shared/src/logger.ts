import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

let destination: DestinationStream | undefined;

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
  return destination ? pino(options, destination) : pino(options);
}
