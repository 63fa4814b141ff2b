import { channelsOf, defaultChannels, heldUntil, startsSoon } from '../src/notifications/rules';

const now = new Date('2026-12-01T09:00:00Z');
const shift = (start: string, end: string) => ({ startAt: new Date(start), endAt: new Date(end) });

describe('quiet hours (heldUntil)', () => {
  it('urgent, or on shift: now; off shift: the next shift\'s start; no shift ahead: now', () => {
    const later = shift('2026-12-02T08:00:00Z', '2026-12-02T16:00:00Z');
    const sooner = shift('2026-12-01T18:00:00Z', '2026-12-01T23:00:00Z');
    expect(heldUntil(true, [later], now)).toBeNull();
    expect(heldUntil(false, [later, sooner], now)).toEqual(sooner.startAt);
    expect(heldUntil(false, [shift('2026-12-01T09:00:00Z', '2026-12-01T17:00:00Z'), later], now)).toBeNull(); // starts now: on shift
    expect(heldUntil(false, [shift('2026-12-01T01:00:00Z', '2026-12-01T09:00:00Z'), later], now)).toEqual(later.startAt); // ended now: off shift
    expect(heldUntil(false, [], now)).toBeNull();
  });
});

describe('urgency and channels', () => {
  it('a shift within 24 hours (or started) is soon', () => {
    expect(startsSoon('2026-12-02T09:00:00Z', now)).toBe(true);
    expect(startsSoon('2026-12-02T09:00:01Z', now)).toBe(false);
    expect(startsSoon('2026-11-30T09:00:00Z', now)).toBe(true);
  });

  it('defaults: in-app for all, email for decisions and assignments, no SMS or push; a choice replaces them', () => {
    expect(defaultChannels('schedule_published')).toEqual({ inApp: true, email: false, sms: false, push: false });
    expect(defaultChannels('work_order_assigned')).toEqual({ inApp: true, email: true, sms: false, push: false });
    const chosen = { shift_offered: { inApp: false, email: false, sms: true, push: false } };
    expect(channelsOf(chosen, 'shift_offered')).toEqual({ inApp: false, email: false, sms: true, push: false });
    expect(channelsOf(chosen, 'time_off_decided')).toEqual(defaultChannels('time_off_decided'));
  });
});
