import type { SensorAlarmEventObject } from '@bop/contracts';
import { findPlain, fmtQuantity, newId, sqlQuery, type Work } from '@bop/shared';
import { OperationsSensorAlarm } from './entities';
import type { AlarmReplay, RaisedAlarm, TimedValue } from './alarm-rules';

/** What an alarm event names of its sensor. */
export interface AlarmSensor {
  id: string;
  name: string;
  locationId: string;
  assetId: string | null;
  unit: string;
  min: string | null;
  max: string | null;
}

export interface AlarmEvent {
  type: 'sensor.out_of_range';
  aggregateType: 'sensor';
  aggregateId: string;
  locationId: string;
  object: SensorAlarmEventObject;
}

const fmt = (v: string | null) => (v === null ? null : fmtQuantity(v));

/** `sensor.out_of_range` for one alarm: raised (`out_of_range`) or ended (`back_in_range`), decided by the reading `by`. */
export function alarmEvent(s: AlarmSensor, alarm: { id: string; startedAt: Date }, state: SensorAlarmEventObject['state'], by: TimedValue): AlarmEvent {
  return {
    type: 'sensor.out_of_range',
    aggregateType: 'sensor',
    aggregateId: s.id,
    locationId: s.locationId,
    object: {
      id: alarm.id,
      sensorId: s.id,
      sensorName: s.name,
      locationId: s.locationId,
      assetId: s.assetId,
      state,
      value: fmtQuantity(by.value),
      unit: s.unit,
      min: fmt(s.min),
      max: fmt(s.max),
      outOfRangeSince: alarm.startedAt.toISOString(),
      readAt: by.readAt.toISOString(),
    },
  };
}

/** The raised alarms of sensors still open (by sensor), for the replay of their new readings. */
export async function openAlarms(w: Work, alarmIds: string[]): Promise<Map<string, RaisedAlarm[]>> {
  const bySensor = new Map<string, RaisedAlarm[]>();
  if (alarmIds.length === 0) return bySensor;
  const rows = await findPlain(w.em, OperationsSensorAlarm, { id: { $in: alarmIds }, endedAt: null });
  for (const r of rows) bySensor.set(r.sensorId, [...(bySensor.get(r.sensorId) ?? []), { id: r.id, startedAt: r.startedAt, endedAt: null }]);
  return bySensor;
}

/**
 * Stores what replays decided — new alarms (an excursion a late batch carried whole is stored ended),
 * alarms ended — and answers their events in reading-time order per sensor, and each sensor's open
 * alarm afterwards (the latest still open, or none).
 */
export async function applyAlarmReplays(
  w: Work,
  replays: Array<{ sensor: AlarmSensor; replay: AlarmReplay; alarms: RaisedAlarm[] }>,
): Promise<{ events: AlarmEvent[]; openAlarm: Map<string, string | null> }> {
  const now = w.now;
  const events: AlarmEvent[] = [];
  const openAlarm = new Map<string, string | null>();
  const inserts: Array<OperationsSensorAlarm> = [];
  const closes: Array<{ id: string; endedAt: Date; endedValue: string }> = [];
  for (const { sensor, replay, alarms } of replays) {
    const timeline: Array<{ at: number; event: AlarmEvent }> = [];
    const closed = new Set(replay.closes.map((c) => c.id));
    let open: { id: string; startedAt: number } | null = null;
    for (const a of alarms) {
      if (a.endedAt === null && !closed.has(a.id) && (!open || a.startedAt.getTime() > open.startedAt)) open = { id: a.id, startedAt: a.startedAt.getTime() };
    }
    for (const c of replay.closes) {
      const a = alarms.find((x) => x.id === c.id)!;
      closes.push({ id: c.id, endedAt: c.endedBy.readAt, endedValue: c.endedBy.value });
      timeline.push({ at: c.endedBy.readAt.getTime(), event: alarmEvent(sensor, a, 'back_in_range', c.endedBy) });
    }
    for (const r of replay.raises) {
      const id = newId('sensorAlarm');
      inserts.push({
        id,
        sensorId: sensor.id,
        locationId: sensor.locationId,
        startedAt: r.startedAt,
        raisedAt: r.decidedBy.readAt,
        raisedValue: r.decidedBy.value,
        raisedBy: r.by,
        endedAt: r.endedBy?.readAt ?? null,
        endedValue: r.endedBy?.value ?? null,
        createdAt: now,
        updatedAt: now,
      });
      const alarm = { id, startedAt: r.startedAt };
      timeline.push({ at: r.decidedBy.readAt.getTime(), event: alarmEvent(sensor, alarm, 'out_of_range', r.decidedBy) });
      if (r.endedBy) timeline.push({ at: r.endedBy.readAt.getTime(), event: alarmEvent(sensor, alarm, 'back_in_range', r.endedBy) });
      else if (!open || r.startedAt.getTime() > open.startedAt) open = { id, startedAt: r.startedAt.getTime() };
    }
    // stable: an alarm's out_of_range stays before its back_in_range
    timeline.sort((a, b) => a.at - b.at);
    events.push(...timeline.map((t) => t.event));
    openAlarm.set(sensor.id, open?.id ?? null);
  }
  if (inserts.length > 0) await w.em.insertMany(OperationsSensorAlarm, inserts);
  await closeAlarms(w, closes);
  return { events, openAlarm };
}

/** Ends the alarms a replay closed: each by the reading that came back in range. */
export async function closeAlarms(w: Work, closes: Array<{ id: string; endedAt: Date; endedValue: string }>): Promise<void> {
  if (closes.length === 0) return;
  // raw SQL (bench:sql operations.close-alarms): 4,000 µs against 11,198 through the ORM (2.8×, 3.1× in a second run: the alarms loaded
  // as entities, changed and flushed, against one update from a JSON list)
  await sqlQuery(
    w.em,
    `update "${w.schema}"."sensor_alarms" a set "ended_at" = x."ended_at", "ended_value" = x."ended_value", "updated_at" = ?
     from jsonb_to_recordset(?::jsonb) as x("id" text, "ended_at" timestamptz, "ended_value" numeric) where a."id" = x."id"`,
    [w.now, JSON.stringify(closes.map((c) => ({ id: c.id, ended_at: c.endedAt.toISOString(), ended_value: c.endedValue })))],
  );
}
