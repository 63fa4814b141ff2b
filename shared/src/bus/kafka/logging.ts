// kafkajs's log lines into pino.
import { logLevel, type LogEntry } from 'kafkajs';
import type { Logger } from '../../logger';

/** kafkajs's log level for a pino logger's level. */
export function kafkaLogLevel(level: string): logLevel {
  switch (level) {
    case 'trace':
    case 'debug':
      return logLevel.DEBUG;
    case 'info':
      return logLevel.INFO;
    case 'warn':
      return logLevel.WARN;
    case 'silent':
      return logLevel.NOTHING;
    default:
      return logLevel.ERROR;
  }
}

/** kafkajs logCreator writing to pino: ERROR→error, WARN→warn, INFO→info, DEBUG→debug. */
export function pinoLogCreator(log: Logger) {
  return () =>
    ({ namespace, level, log: entry }: LogEntry): void => {
      const { message, timestamp: _timestamp, logger: _logger, ...extra } = entry;
      const fields = { kafkajs: namespace, ...extra };
      // kafkajs's connection logs every error response (a topic's leader moving, a topic just created)
      // at ERROR; its callers retry those or fail with them, and we log what fails there
      if (namespace === 'Connection' && level === logLevel.ERROR && message.startsWith('Response ')) log.debug(fields, message);
      else if (level === logLevel.ERROR) log.error(fields, message);
      else if (level === logLevel.WARN) log.warn(fields, message);
      else if (level === logLevel.INFO) log.info(fields, message);
      else log.debug(fields, message);
    };
}
