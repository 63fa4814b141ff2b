export type ReportedHealth = 'ok' | 'warning' | 'error';
export type Health = ReportedHealth | 'silent' | 'unknown';

/** Heartbeats may be this many intervals overdue before health reads `silent`. */
export const SILENT_AFTER_INTERVALS = 3;

/**
 * Health on read (spec supplement: Integration health): `unknown` before the first heartbeat; the
 * reported value while heartbeats come; `silent` when none came within three intervals.
 */
export function deriveHealth(input: { reported: ReportedHealth | null; lastHeartbeatAt: Date | null; intervalSeconds: number; now: Date }): Health {
  if (!input.lastHeartbeatAt || !input.reported) return 'unknown';
  const silentAt = silentAfter(input.lastHeartbeatAt, input.intervalSeconds);
  return input.now.getTime() > silentAt.getTime() ? 'silent' : input.reported;
}

export function silentAfter(lastHeartbeatAt: Date, intervalSeconds: number): Date {
  return new Date(lastHeartbeatAt.getTime() + intervalSeconds * SILENT_AFTER_INTERVALS * 1000);
}
