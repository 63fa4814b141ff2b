import { SensorReadingInput } from '@bop/contracts';
import { batchCompletedEvent, newId, parseBatchRecords, afterCommit, recordIngest, sqlList, sqlQuery, type BatchResult, type FieldError, type RecordResult, type Work } from '@bop/shared';
import { isInRange, replayAlarm, type RaisedAlarm, type TimedValue } from './alarm-rules';
import { applyAlarmReplays, openAlarms, type AlarmSensor } from './alarm-store';

/** A reading may be stamped at most this far ahead of the service's clock (device clocks drift a little, not more). */
const FUTURE_SKEW_MS = 5 * 60_000;

/** A sensor row as the ingestion reads and locks it. */
interface SensorRow {
  id: string;
  external_id: string | null;
  name: string;
  unit: string;
  min: string | null;
  max: string | null;
  alarm_delay_minutes: number;
  location_id: string;
  asset_id: string | null;
  status: string;
  archived_at: Date | null;
  last_read_at: Date | null;
  last_value: string | null;
  run_started_at: Date | null;
  alarm_id: string | null;
}

interface Valid {
  i: number;
  sensorId: string;
  readAt: Date;
  value: string;
}

const key = (sensorId: string, readAt: Date) => `${sensorId}|${readAt.getTime()}`;
const alarmSensor = (s: SensorRow): AlarmSensor => ({ id: s.id, name: s.name, locationId: s.location_id, assetId: s.asset_id, unit: s.unit, min: s.min, max: s.max });
const rangeOf = (s: SensorRow) => ({ min: s.min, max: s.max, alarmDelayMinutes: s.alarm_delay_minutes });

function archivedError(s: SensorRow, path: string): FieldError {
  return { path, message: `Sensor ${s.id} is archived${s.archived_at ? ` (since ${new Date(s.archived_at).toISOString()})` : ''}; it takes no new readings.` };
}

/**
 * `POST /sensor-readings` (spec: ingestion rules 1, 4, 5; Batch result): each reading judged on its
 * own (its sensor by id or externalId, unknown or archived refused on the field; `readAt` in UTC and
 * not ahead of the clock), then stored set-based, idempotent per (sensor, readAt): a new one
 * `created`, the same value again `unchanged`, another value `updated`; the same sensor and time twice
 * in a batch: the later `duplicate`. The kit's `ingestBatch` keys on (source, externalId) in an
 * unpartitioned table; readings key on (sensor, readAt) in a table partitioned by time, so this
 * store writes them itself with the kit's record parsing, results, outbox and batch event.
 * In the same transaction, under the lock of each sensor read, the alarm is replayed by reading
 * time (alarm-rules.ts): two concurrent batches of one sensor queue on its row, never raise twice.
 * Raw SQL: bench/sensors.ts, the readings path is the volume path (≥ 20,000 readings/s).
 */
export async function ingestReadings(w: Work, opts: { source: string; records: unknown[]; endpoint: string }): Promise<BatchResult> {
  const now = w.now;
  const parsed = parseBatchRecords(SensorReadingInput, opts.records);
  const results: RecordResult[] = parsed.map((p) => ({ index: p.index, externalId: p.externalId, status: 'rejected' }));
  const ids = new Set<string>();
  const externalIds = new Set<string>();
  for (const p of parsed) {
    if (p.data?.sensorId) ids.add(p.data.sensorId);
    if (p.data?.sensorExternalId) externalIds.add(p.data.sensorExternalId);
  }
  const known =
    ids.size + externalIds.size === 0
      ? []
      : await sqlQuery<{ id: string; external_id: string | null }>(w.em, `select "id", "external_id" from "${w.schema}"."sensors" where "id" = any(?::text[]) or "external_id" = any(?::text[])`, [
          sqlList([...ids]),
          sqlList([...externalIds]),
        ]);
  const byId = new Set(known.map((k) => k.id));
  const byExternalId = new Map(known.filter((k) => k.external_id).map((k) => [k.external_id!, k.id]));

  const candidates: Valid[] = [];
  const seen = new Set<string>();
  parsed.forEach((p, i) => {
    if (!p.data) {
      results[i].errors = p.errors;
      return;
    }
    const d = p.data;
    const sensorId = d.sensorId !== undefined ? (byId.has(d.sensorId) ? d.sensorId : undefined) : byExternalId.get(d.sensorExternalId!);
    if (!sensorId) {
      results[i].errors = [d.sensorId !== undefined ? { path: 'sensorId', message: `No sensor ${d.sensorId}.` } : { path: 'sensorExternalId', message: `No sensor with externalId ${d.sensorExternalId}.` }];
      return;
    }
    const readAt = new Date(d.readAt);
    if (readAt.getTime() > now.getTime() + FUTURE_SKEW_MS) {
      results[i].errors = [{ path: 'readAt', message: `Is ahead of the service's clock (${now.toISOString()}) by more than 5 minutes; check the device's clock.` }];
      return;
    }
    // spec: Batch result, the same record twice in one batch — the later one is `duplicate`
    if (seen.has(key(sensorId, readAt))) {
      results[i].status = 'duplicate';
      return;
    }
    seen.add(key(sensorId, readAt));
    candidates.push({ i, sensorId, readAt, value: d.value });
  });

  const sensors = await lockSensors(w, [...new Set(candidates.map((c) => c.sensorId))]);
  const valid: Valid[] = [];
  for (const c of candidates) {
    const s = sensors.get(c.sensorId)!;
    if (s.status !== 'active') results[c.i].errors = [archivedError(s, parsed[c.i].data!.sensorId !== undefined ? 'sensorId' : 'sensorExternalId')];
    else valid.push(c);
  }
  const written = await upsertReadings(w, valid, opts.source);
  const touched = new Map<string, TimedValue[]>();
  for (const v of valid) {
    const status = written.get(key(v.sensorId, v.readAt)) ?? 'unchanged';
    results[v.i].status = status;
    results[v.i].id = v.sensorId;
    if (status === 'unchanged') continue;
    touched.set(v.sensorId, [...(touched.get(v.sensorId) ?? []), { readAt: v.readAt, value: v.value }]);
  }
  const events = await replayTouched(w, sensors, touched);

  const counts = { created: 0, updated: 0, unchanged: 0, duplicate: 0, rejected: 0 };
  for (const r of results) counts[r.status] += 1;
  const batch: BatchResult = { batchId: newId('batch'), received: opts.records.length, ...counts, results };
  const batchEvent = batchCompletedEvent(batch, { area: 'operations', actor: w.actor, source: opts.source, endpoint: opts.endpoint, at: now });
  for (const e of [...events, batchEvent]) w.emit(e);
  // counted once committed: the caller's transaction may still roll back or run again
  afterCommit(w.em, () => recordIngest(opts.endpoint, batch));
  return batch;
}

/** The sensors of a batch, locked in id order (concurrent batches lock in the same order: no deadlock). */
async function lockSensors(w: Work, ids: string[]): Promise<Map<string, SensorRow>> {
  if (ids.length === 0) return new Map();
  const rows = await sqlQuery<SensorRow>(
    w.em,
    `select "id", "external_id", "name", "unit", "min", "max", "alarm_delay_minutes", "location_id", "asset_id", "status", "archived_at",
            "last_read_at", "last_value", "run_started_at", "alarm_id"
     from "${w.schema}"."sensors" where "id" = any(?::text[]) order by "id" for update`,
    [sqlList(ids)],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** One multi-row upsert on (sensor, readAt): the value written only when it differs; answers created/updated by key (absent: unchanged). */
async function upsertReadings(w: Work, valid: Valid[], source: string): Promise<Map<string, 'created' | 'updated'>> {
  const out = new Map<string, 'created' | 'updated'>();
  if (valid.length === 0) return out;
  // positional arrays in key order: Postgres parses them faster than named objects, and rows lock in one order
  const rows = [...valid].sort((a, b) => (a.sensorId < b.sensorId ? -1 : a.sensorId > b.sensorId ? 1 : a.readAt.getTime() - b.readAt.getTime())).map((v) => [v.sensorId, v.readAt.toISOString(), v.value]);
  const returned = await sqlQuery<{ sensor_id: string; read_at: Date; inserted: boolean }>(
    w.em,
    `insert into "${w.schema}"."sensor_readings" as r ("sensor_id", "read_at", "value", "source", "received_at")
     select x->>0, (x->>1)::timestamptz, (x->>2)::numeric, ?, ? from jsonb_array_elements(?::jsonb) as x
     on conflict ("sensor_id", "read_at") do update set "value" = excluded."value", "source" = excluded."source", "changed_at" = excluded."received_at"
     where r."value" is distinct from excluded."value"
     returning r."sensor_id", r."read_at", (r."changed_at" is null) as "inserted"`,
    [source, w.now, JSON.stringify(rows)],
  );
  for (const r of returned) out.set(key(r.sensor_id, new Date(r.read_at)), r.inserted ? 'created' : 'updated');
  return out;
}

/**
 * Replays the alarm of each sensor that got new or changed readings and stores its state. In time
 * order (every new reading after the latest stored one) the new readings continue the stored state;
 * a late or changed reading replays from the run it falls in up to the latest reading.
 */
async function replayTouched(w: Work, sensors: Map<string, SensorRow>, touched: Map<string, TimedValue[]>) {
  const now = w.now;
  if (touched.size === 0) return [];
  const inOrder: string[] = [];
  const late: string[] = [];
  for (const [id, readings] of touched) {
    readings.sort((a, b) => a.readAt.getTime() - b.readAt.getTime());
    const last = sensors.get(id)!.last_read_at;
    if (last === null || readings[0].readAt.getTime() > new Date(last).getTime()) inOrder.push(id);
    else late.push(id);
  }
  const stored = await openAlarms(
    w,
    inOrder.flatMap((id) => sensors.get(id)!.alarm_id ?? []),
  );
  const replays: Array<{ sensor: AlarmSensor; replay: ReturnType<typeof replayAlarm>; alarms: RaisedAlarm[]; last: TimedValue }> = [];
  for (const id of inOrder) {
    const s = sensors.get(id)!;
    const readings = touched.get(id)!;
    const alarms = stored.get(id) ?? [];
    const replay = replayAlarm({ range: rangeOf(s), runStartedAt: s.run_started_at ? new Date(s.run_started_at) : null, readings, alarms, now });
    replays.push({ sensor: alarmSensor(s), replay, alarms, last: readings[readings.length - 1] });
  }
  for (const id of late) {
    const s = sensors.get(id)!;
    const window = await lateWindow(w, s, touched.get(id)![0].readAt);
    const replay = replayAlarm({ range: rangeOf(s), runStartedAt: window.runStartedAt, readings: window.readings, alarms: window.alarms, now });
    replays.push({ sensor: alarmSensor(s), replay, alarms: window.alarms, last: window.readings[window.readings.length - 1] });
  }
  const { events, openAlarm } = await applyAlarmReplays(w, replays);
  await sqlQuery(
    w.em,
    `update "${w.schema}"."sensors" s set "last_read_at" = x."last_read_at", "last_value" = x."last_value", "run_started_at" = x."run_started_at", "alarm_id" = x."alarm_id"
     from jsonb_to_recordset(?::jsonb) as x("id" text, "last_read_at" timestamptz, "last_value" numeric, "run_started_at" timestamptz, "alarm_id" text) where s."id" = x."id"`,
    [
      JSON.stringify(
        replays.map((r) => ({
          id: r.sensor.id,
          last_read_at: r.last.readAt.toISOString(),
          last_value: r.last.value,
          run_started_at: r.replay.runStartedAt?.toISOString() ?? null,
          alarm_id: openAlarm.get(r.sensor.id) ?? null,
        })),
      ),
    ],
  );
  return events;
}

/** The range of a sensor as SQL over "value": in range when neither bound is passed. */
const IN_RANGE_SQL = `not (coalesce("value" < ?::numeric, false) or coalesce("value" > ?::numeric, false))`;

/**
 * The window a late reading (at or before the latest stored one) replays: every reading from `from`
 * to the latest, the start of the out-of-range run the reading just before `from` belongs to, and
 * the alarms that may overlap.
 */
async function lateWindow(w: Work, s: SensorRow, from: Date): Promise<{ readings: TimedValue[]; runStartedAt: Date | null; alarms: RaisedAlarm[] }> {
  const table = `"${w.schema}"."sensor_readings"`;
  const rows = await sqlQuery<{ read_at: Date; value: string }>(w.em, `select "read_at", "value" from ${table} where "sensor_id" = ? and "read_at" >= ? order by "read_at"`, [s.id, from]);
  const readings = rows.map((r) => ({ readAt: new Date(r.read_at), value: r.value }));
  const [before] = await sqlQuery<{ read_at: Date; value: string }>(w.em, `select "read_at", "value" from ${table} where "sensor_id" = ? and "read_at" < ? order by "read_at" desc limit 1`, [s.id, from]);
  let runStartedAt: Date | null = null;
  if (before && !isInRange(before.value, s)) {
    const [start] = await sqlQuery<{ at: Date }>(
      w.em,
      `select min("read_at") as "at" from ${table} where "sensor_id" = ? and "read_at" < ? and "read_at" > coalesce(
         (select max("read_at") from ${table} where "sensor_id" = ? and "read_at" < ? and ${IN_RANGE_SQL}), '-infinity'::timestamptz)`,
      [s.id, from, s.id, from, s.min, s.max],
    );
    runStartedAt = new Date(start.at);
  }
  const since = runStartedAt ?? from;
  const alarms = await sqlQuery<{ id: string; started_at: Date; ended_at: Date | null }>(
    w.em,
    `select "id", "started_at", "ended_at" from "${w.schema}"."sensor_alarms" where "sensor_id" = ? and ("ended_at" is null or "ended_at" >= ?) order by "started_at"`,
    [s.id, since],
  );
  return { readings, runStartedAt, alarms: alarms.map((a) => ({ id: a.id, startedAt: new Date(a.started_at), endedAt: a.ended_at ? new Date(a.ended_at) : null })) };
}
