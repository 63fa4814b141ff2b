import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON logs (pino); request lines carry `requestId`. */
export function createLogger(name: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name,
    level,
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-internal-token"]', 'password', '*.password'], censor: '[redacted]' },
  });
}
