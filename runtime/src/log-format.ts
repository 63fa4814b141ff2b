/**
 * The runtime's log format: readable lines (pino-pretty) when stdout is a terminal, JSON lines
 * otherwise; LOG_FORMAT=json|pretty overrides.
 */
import pretty from 'pino-pretty';
import { setLogDestination } from '@bop/shared';

export type LogFormat = 'json' | 'pretty';

export function chooseLogFormat(env: Record<string, string | undefined> = process.env, isTTY = !!process.stdout.isTTY): LogFormat {
  if (env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty') return env.LOG_FORMAT;
  return isTTY ? 'pretty' : 'json';
}

let current: { format: LogFormat; colorize: boolean } = { format: 'json', colorize: false };

/** The format this thread's loggers write (what a worker thread is told to use too). */
export function currentLogFormat(): { format: LogFormat; colorize: boolean } {
  return current;
}

/** Makes every logger created from now on write in `format` (this thread). */
export function useLogFormat(format: LogFormat, colorize = !!process.stdout.isTTY): void {
  current = { format, colorize };
  if (format === 'json') {
    setLogDestination(undefined);
    return;
  }
  setLogDestination(
    pretty({
      colorize,
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,service',
      singleLine: true,
    }),
  );
}
