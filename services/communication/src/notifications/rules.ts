import type { NotificationChannels, NotificationKind } from '@bop/contracts';

/** The kinds that also go out by email unless the person turns it off: decisions and assignments that ask something of them. */
export const EMAIL_BY_DEFAULT: ReadonlySet<NotificationKind> = new Set(['swap_decided', 'time_off_decided', 'corrective_action_assigned', 'work_order_assigned', 'announcement_reminder', 'announcement_overdue']);

/** A kind's channels when the person chose nothing: in the app always, email for the important kinds, SMS and push off. */
export function defaultChannels(kind: NotificationKind): NotificationChannels {
  return { inApp: true, email: EMAIL_BY_DEFAULT.has(kind), sms: false, push: false };
}

/** The channels of a kind for a person: what they chose, else the defaults. */
export function channelsOf(chosen: Partial<Record<NotificationKind, NotificationChannels>> | undefined, kind: NotificationKind): NotificationChannels {
  return chosen?.[kind] ?? defaultChannels(kind);
}

/** How soon a shift makes its notification urgent. */
export const URGENT_WITHIN_MS = 24 * 3_600_000;

/** A shift starting within 24 hours of now (or already started): its offer, swap or publication cannot wait for the next shift. */
export function startsSoon(start: Date | string, now: Date): boolean {
  return new Date(start).getTime() - now.getTime() <= URGENT_WITHIN_MS;
}

/**
 * Quiet hours: when a notification goes out on an external channel (email, SMS, push). Urgent ones,
 * and any while the person is on shift, go now (null). Otherwise it waits for the start of their next
 * published shift; a person with no shift ahead has nothing to wait for and gets it now. `shifts`: the
 * person's published shifts not yet ended.
 */
export function heldUntil(urgent: boolean, shifts: ReadonlyArray<{ startAt: Date; endAt: Date }>, now: Date): Date | null {
  if (urgent) return null;
  const t = now.getTime();
  let next: Date | null = null;
  for (const s of shifts) {
    const start = new Date(s.startAt).getTime();
    if (start <= t && t < new Date(s.endAt).getTime()) return null;
    if (start > t && (next === null || start < next.getTime())) next = new Date(start);
  }
  return next;
}
