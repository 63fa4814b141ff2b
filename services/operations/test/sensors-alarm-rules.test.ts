import { isInRange, replayAlarm, type RaisedAlarm, type TimedValue } from '../src/sensors/alarm-rules';

const T0 = Date.parse('2026-03-02T10:00:00Z');
const at = (minute: number) => new Date(T0 + minute * 60_000);
const r = (minute: number, value: string): TimedValue => ({ readAt: at(minute), value });
const range = { min: '0', max: '5', alarmDelayMinutes: 15 };
const replay = (readings: TimedValue[], o: { runStartedAt?: Date | null; alarms?: RaisedAlarm[]; now?: Date; delay?: number } = {}) =>
  replayAlarm({ range: { ...range, alarmDelayMinutes: o.delay ?? 15 }, runStartedAt: o.runStartedAt ?? null, readings, alarms: o.alarms ?? [], now: o.now ?? at(readings.length ? readings.length - 1 : 0) });

describe('isInRange', () => {
  it('includes the bounds, compares decimals exactly, and a missing bound does not limit', () => {
    expect(isInRange('5', range)).toBe(true);
    expect(isInRange('5.000001', range)).toBe(false);
    expect(isInRange('-0.000001', range)).toBe(false);
    expect(isInRange('0.0', range)).toBe(true);
    expect(isInRange('-40', { min: null, max: '-18' })).toBe(true);
    expect(isInRange('-17.9', { min: null, max: '-18' })).toBe(false);
    expect(isInRange('99999', { min: '2', max: null })).toBe(true);
  });
});

describe('replayAlarm', () => {
  const outFor = (minutes: number) => Array.from({ length: minutes + 1 }, (_, m) => r(m, '9'));

  it('raises nothing after 14 minutes out of range, once at 15, and ends it with the first reading back in range', () => {
    expect(replay(outFor(14), { now: at(14) })).toEqual({ raises: [], closes: [], runStartedAt: at(0) });
    const fifteen = replay(outFor(15), { now: at(15) });
    expect(fifteen.raises).toEqual([{ startedAt: at(0), decidedBy: r(15, '9'), by: 'reading', endedBy: null }]);
    // the raised alarm continues: more readings out of range raise nothing more
    const alarm = { id: 'sal_1', startedAt: at(0), endedAt: null };
    expect(replay([r(16, '9'), r(17, '8')], { runStartedAt: at(0), alarms: [alarm], now: at(17) })).toEqual({ raises: [], closes: [], runStartedAt: at(0) });
    expect(replay([r(18, '7'), r(19, '4'), r(20, '3')], { runStartedAt: at(0), alarms: [alarm], now: at(20) })).toEqual({ raises: [], closes: [{ id: 'sal_1', endedBy: r(19, '4') }], runStartedAt: null });
  });

  it('decides by reading time: the 15th minute counts from the run\'s first reading, whatever order they came in', () => {
    const shuffled = [r(0, '9'), r(15, '9')];
    expect(replay(shuffled, { now: at(15) }).raises).toHaveLength(1);
    // an in-range reading in between breaks the run
    expect(replay([r(0, '9'), r(7, '4'), r(8, '9'), r(15, '9')], { now: at(15) }).raises).toEqual([]);
  });

  it('raises by the clock once the delay has passed since the run began with no newer reading', () => {
    expect(replay([r(0, '9')], { now: at(14) }).raises).toEqual([]);
    expect(replay([r(0, '9')], { now: at(15) }).raises).toEqual([{ startedAt: at(0), decidedBy: r(0, '9'), by: 'clock', endedBy: null }]);
    // a clock-raised alarm ends with the next reading in range, though its readings alone never lasted the delay
    expect(replay([r(16, '1')], { runStartedAt: at(0), alarms: [{ id: 'sal_2', startedAt: at(0), endedAt: null }], now: at(16) }).closes).toEqual([{ id: 'sal_2', endedBy: r(16, '1') }]);
  });

  it('raises at once with delay 0', () => {
    expect(replay([r(0, '4'), r(1, '6')], { delay: 0, now: at(1) }).raises).toEqual([{ startedAt: at(1), decidedBy: r(1, '6'), by: 'reading', endedBy: null }]);
  });

  it('carries a whole past excursion of a late batch as an alarm raised and ended, and never raises a stored one again', () => {
    const readings = [r(0, '9'), r(10, '9'), r(16, '9'), r(17, '2'), r(30, '2')];
    const first = replay(readings, { now: at(40) });
    expect(first.raises).toEqual([{ startedAt: at(0), decidedBy: r(16, '9'), by: 'reading', endedBy: r(17, '2') }]);
    expect(first.runStartedAt).toBeNull();
    const again = replay(readings, { alarms: [{ id: 'sal_3', startedAt: at(0), endedAt: at(17) }], now: at(40) });
    expect(again).toEqual({ raises: [], closes: [], runStartedAt: null });
  });

  it('ends an open alarm no run covers any more (its readings re-sent in range)', () => {
    const open = { id: 'sal_4', startedAt: at(0), endedAt: null };
    expect(replay([r(0, '3'), r(15, '3')], { alarms: [open], now: at(15) }).closes).toEqual([{ id: 'sal_4', endedBy: r(0, '3') }]);
  });
});
