import Decimal from 'decimal.js';

/**
 * The out-of-range alarm of a sensor (issue 19 item 4), decided by reading time, never by arrival:
 * a run is a stretch of consecutive out-of-range readings; it has lasted the sensor's delay once one
 * of its readings is `delay` minutes or more after its first (delay 0: its first reading), or — for the
 * run of the latest reading — once the clock is `delay` past its first reading with no newer reading.
 * Such a run raises one alarm (`sensor.out_of_range`); the in-range reading that ends it sends one
 * `back_in_range`. Alarms already raised are never raised again for the same run, whatever order
 * (or batches) its readings arrive in.
 */

export interface SensorRange {
  min: string | null;
  max: string | null;
  alarmDelayMinutes: number;
}

export interface TimedValue {
  readAt: Date;
  value: string;
}

/** An alarm already raised (stored): its run's first reading and the reading that ended it. */
export interface RaisedAlarm {
  id: string;
  startedAt: Date;
  endedAt: Date | null;
}

export interface AlarmRaise {
  startedAt: Date;
  /** the reading that decided it: the first one `delay` after the run's start, or (clock) the run's latest */
  decidedBy: TimedValue;
  by: 'reading' | 'clock';
  /** the in-range reading that already ended the run (a late batch can carry a whole past excursion) */
  endedBy: TimedValue | null;
}

export interface AlarmClose {
  id: string;
  endedBy: TimedValue;
}

export interface AlarmReplay {
  raises: AlarmRaise[];
  closes: AlarmClose[];
  /** the start of the run the latest reading belongs to (null: the latest reading is in range) */
  runStartedAt: Date | null;
}

/** Within the range, bounds included; a missing bound does not limit. */
export function isInRange(value: string, range: Pick<SensorRange, 'min' | 'max'>): boolean {
  const v = new Decimal(value);
  if (range.min !== null && v.lessThan(range.min)) return false;
  if (range.max !== null && v.greaterThan(range.max)) return false;
  return true;
}

const minutes = (from: Date, to: Date) => (to.getTime() - from.getTime()) / 60_000;

interface Run {
  start: Date;
  lastOut: TimedValue | null;
  qualifiedBy: TimedValue | null;
  by: 'reading' | 'clock';
  endedBy: TimedValue | null;
}

/**
 * Replays a window of a sensor's readings: `readings` in time order from the window's start to the
 * sensor's latest reading; `runStartedAt` the start of the run the reading just before the window
 * belongs to (null when that one was in range, or there is none); `alarms` the raised alarms that may
 * overlap the window. Answers the alarms to raise, those to end, and the state after the window.
 */
export function replayAlarm(input: { range: SensorRange; runStartedAt: Date | null; readings: TimedValue[]; alarms: RaisedAlarm[]; now: Date }): AlarmReplay {
  const { range } = input;
  const runs: Run[] = [];
  let current: Run | null = input.runStartedAt ? { start: input.runStartedAt, lastOut: null, qualifiedBy: null, by: 'reading', endedBy: null } : null;
  for (const r of input.readings) {
    if (isInRange(r.value, range)) {
      if (current) {
        current.endedBy = r;
        runs.push(current);
        current = null;
      }
      continue;
    }
    if (!current) current = { start: r.readAt, lastOut: null, qualifiedBy: null, by: 'reading', endedBy: null };
    current.lastOut = r;
    if (!current.qualifiedBy && minutes(current.start, r.readAt) >= range.alarmDelayMinutes) current.qualifiedBy = r;
  }
  if (current) {
    // the latest reading is out of range: the clock decides once the delay has passed without a newer reading
    if (!current.qualifiedBy && current.lastOut && minutes(current.start, input.now) >= range.alarmDelayMinutes) {
      current.qualifiedBy = current.lastOut;
      current.by = 'clock';
    }
    runs.push(current);
  }

  const raises: AlarmRaise[] = [];
  const closes: AlarmClose[] = [];
  const ended = new Set<string>();
  const matchedAny = new Set<string>();
  for (const run of runs) {
    const until = run.endedBy?.readAt.getTime() ?? Infinity;
    const matched = input.alarms.filter((a) => a.startedAt.getTime() < until && (a.endedAt?.getTime() ?? Infinity) > run.start.getTime());
    for (const a of matched) matchedAny.add(a.id);
    if (run.qualifiedBy && matched.length === 0) raises.push({ startedAt: run.start, decidedBy: run.qualifiedBy, by: run.by, endedBy: run.endedBy });
    if (run.endedBy) {
      for (const a of matched) {
        if (a.endedAt !== null || ended.has(a.id)) continue;
        ended.add(a.id);
        closes.push({ id: a.id, endedBy: run.endedBy });
      }
    }
  }
  // an open alarm no run of the window covers (its readings were re-sent in range): the first in-range reading after its start ends it
  for (const a of input.alarms) {
    if (a.endedAt !== null || ended.has(a.id) || matchedAny.has(a.id)) continue;
    const back = input.readings.find((r) => r.readAt.getTime() >= a.startedAt.getTime() && isInRange(r.value, range));
    if (back) closes.push({ id: a.id, endedBy: back });
  }
  return { raises, closes, runStartedAt: current ? current.start : null };
}
