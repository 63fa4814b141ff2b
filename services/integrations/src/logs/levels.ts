import { logLevels, type LogLevel } from '@bop/contracts';

/** 0 = debug … 3 = error; stored with each entry so `level` filters with one comparison. */
export function levelRank(level: LogLevel): number {
  return logLevels.indexOf(level);
}

/** The `level` filter: that level and the more severe ones. */
export function levelsAtOrAbove(level: LogLevel): LogLevel[] {
  return logLevels.slice(levelRank(level));
}
