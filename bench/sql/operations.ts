import { LockMode } from '@mikro-orm/core';
import { findPlain, type Work } from '@bop/shared';
import { operationsService } from '@svc/operations';
import { OperationsSensor, OperationsSensorAlarm, OperationsSensorReading } from '@svc/operations/dist/sensors/entities';
import { closeAlarms } from '@svc/operations/dist/sensors/alarm-store';
import { lockSensors, storeSensorStates, upsertReadings, type SensorRow, type SensorState, type Valid } from '@svc/operations/dist/sensors/ingest-store';
import { dropReadingPartition, monthStart } from '@svc/operations/dist/sensors/partitions-store';
import type { SqlCase } from './case';

/**
 * The data of bench:sensors' busy store: 1,000 fridge sensors (range 0–5 °C, delay 15 minutes) reporting
 * once a minute through hubs of 50; a batch is one hub's 20 minutes (1,000 readings). The hub of sensors
 * 0–49 has a day of readings, the others the last 6 hours (414,000 readings); every sensor left its
 * range for 20 minutes 3 hours ago (an ended alarm) and on each of the 6 days before (6 more);
 * sensors 0–9 are out of range now with an open alarm, 10–29 out of range past their delay (due),
 * 30–39 out of range within a 4-hour delay.
 */
const SENSORS = 1000;
const HUB = 50;
const MINUTE = 60_000;
const sen = (i: number) => `sen_bench${String(i).padStart(4, '0')}`;
const alarmOf = (i: number, day: number) => `sal_bench${String(i).padStart(4, '0')}d${day}`;
/** the latest reading of every sensor: a whole minute an hour before the start of the bench's hour */
const END = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;
const at = (minutesFromEnd: number) => new Date(END + minutesFromEnd * MINUTE);
const EXCURSION = -200; // 20 minutes out of range, from END-200 to END-181; back in range at END-180
const hubIds = Array.from({ length: HUB }, (_, i) => sen(i));

function valueAt(i: number, m: number): string {
  if (m >= EXCURSION && m < EXCURSION + 20) return '8.500000';
  if (i < 10 && m >= -29) return '9.000000';
  if (i >= 10 && i < 40 && m >= -19) return '7.250000';
  return (3 + ((i + m) % 7) / 4).toFixed(6);
}

async function seed(write: <T>(fn: (w: Work) => Promise<T>) => Promise<T>): Promise<void> {
  const actor = { type: 'integration', id: 'bench' };
  await write(async (w) => {
    const created = at(-10_000);
    await w.em.insertMany(
      OperationsSensor,
      Array.from({ length: SENSORS }, (_, i) => ({
        id: sen(i),
        externalId: `probe-${i}`,
        name: `Fridge ${i}`,
        kind: 'temperature' as const,
        unit: '°C',
        min: '0.000000',
        max: '5.000000',
        alarmDelayMinutes: i >= 30 && i < 40 ? 240 : 15,
        locationId: `loc_bench${String(Math.floor(i / 5)).padStart(4, '0')}`,
        assetId: null,
        status: 'active' as const,
        archivedAt: null,
        lastReadAt: at(0),
        lastValue: valueAt(i, 0),
        runStartedAt: i < 10 ? at(-29) : i < 40 ? at(-19) : null,
        alarmId: i < 10 ? alarmOf(i, -1) : null,
        version: 1,
        createdAt: created,
        updatedAt: created,
        actor,
      })),
    );
    const alarms = [];
    for (let i = 0; i < SENSORS; i++) {
      for (let day = 0; day < 7; day++) {
        const start = EXCURSION - day * 1440;
        alarms.push({ id: alarmOf(i, day), sensorId: sen(i), locationId: `loc_bench${String(Math.floor(i / 5)).padStart(4, '0')}`, startedAt: at(start), raisedAt: at(start + 15), raisedValue: '8.500000', raisedBy: 'reading' as const, endedAt: at(start + 20), endedValue: '3.000000', createdAt: at(start + 15), updatedAt: at(start + 20) });
      }
      if (i < 10) alarms.push({ id: alarmOf(i, -1), sensorId: sen(i), locationId: `loc_bench${String(Math.floor(i / 5)).padStart(4, '0')}`, startedAt: at(-29), raisedAt: at(-14), raisedValue: '9.000000', raisedBy: 'reading' as const, endedAt: null, endedValue: null, createdAt: at(-14), updatedAt: at(-14) });
    }
    await w.em.insertMany(OperationsSensorAlarm, alarms);
  });
  for (let i = 0; i < SENSORS; i += 10) {
    await write(async (w) => {
      const rows = [];
      for (let k = i; k < i + 10; k++) {
        for (let m = k < HUB ? -1439 : -359; m <= 0; m++) rows.push({ sensorId: sen(k), readAt: at(m), value: valueAt(k, m), source: 'hub', receivedAt: at(m), changedAt: null });
      }
      await w.em.insertMany(OperationsSensorReading, rows);
    });
  }
  // last month's partition: the hub's readings of one day in it (a month of 1,000 sensors would be 43 million)
  for (let i = 0; i < HUB; i += 10) {
    await write(async (w) => {
      const rows = [];
      for (let k = i; k < i + 10; k++) {
        for (let m = 0; m < 1440; m++) rows.push({ sensorId: sen(k), readAt: new Date(LAST_MONTH.getTime() + 9 * 86_400_000 + m * MINUTE), value: valueAt(k, m), source: 'hub', receivedAt: at(m), changedAt: null });
      }
      await w.em.insertMany(OperationsSensorReading, rows);
    });
  }
}

const LAST_MONTH = monthStart(new Date(), -1);
const lastMonthPartition = `sensor_readings_p${LAST_MONTH.getUTCFullYear()}${String(LAST_MONTH.getUTCMonth() + 1).padStart(2, '0')}`;

/** A hub's next batch: its 50 sensors, the 20 minutes after their latest reading (all new). */
const nextBatch: Valid[] = hubIds.flatMap((sensorId, k) => Array.from({ length: 20 }, (_, m) => ({ i: k * 20 + m, sensorId, readAt: at(m + 1), value: '3.500000' })));
const readingKey = (sensorId: string, readAt: Date) => `${sensorId}|${readAt.getTime()}`;
const sortedEntries = (m: unknown) => [...(m as Map<string, unknown>).entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));

/** The sensor row lockSensors answers, from the entity. */
const sensorRow = (s: OperationsSensor): SensorRow => ({
  id: s.id,
  external_id: s.externalId ?? null,
  name: s.name,
  unit: s.unit,
  min: s.min ?? null,
  max: s.max ?? null,
  alarm_delay_minutes: s.alarmDelayMinutes,
  location_id: s.locationId,
  asset_id: s.assetId ?? null,
  status: s.status,
  archived_at: s.archivedAt ?? null,
  last_read_at: s.lastReadAt ?? null,
  last_value: s.lastValue ?? null,
  run_started_at: s.runStartedAt ?? null,
  alarm_id: s.alarmId ?? null,
});
const rowsAsJson = (m: unknown) => JSON.stringify([...(m as Map<string, SensorRow>).values()].map((r) => ({ ...r, archived_at: r.archived_at && new Date(r.archived_at).toISOString(), last_read_at: r.last_read_at && new Date(r.last_read_at).toISOString(), run_started_at: r.run_started_at && new Date(r.run_started_at).toISOString() })));


/** operations's kept raw statements (cases named `operations.<what>`), each against its best ORM form. */
export const operationsCases: SqlCase[] = [
  {
    name: 'operations.lock-sensors',
    what: 'a batch\'s 50 sensors read and locked in id order',
    service: operationsService,
    seed,
    raw: (w) => lockSensors(w, hubIds),
    async orm(w) {
      // plain rows (no entities): the query builder with the lock
      const rows = await w.em.createQueryBuilder(OperationsSensor).select('*').where({ id: { $in: hubIds } }).orderBy({ id: 'asc' }).setLockMode(LockMode.PESSIMISTIC_WRITE).execute<OperationsSensor[]>('all', true);
      return new Map(rows.map((s) => [s.id, sensorRow(s)]));
    },
    same: (a, b) => rowsAsJson(a) === rowsAsJson(b),
  },
  {
    name: 'operations.upsert-readings',
    what: 'a batch of 1,000 new readings (50 sensors × 20 minutes) upserted on (sensor, readAt), created/updated answered',
    service: operationsService,
    seed: async () => undefined,
    raw: (w) => upsertReadings(w, nextBatch, 'hub'),
    async orm(w) {
      // what code would do without INSERT … ON CONFLICT … RETURNING: read the stored values of the batch's keys, insert the new, update the changed
      const out = new Map<string, 'created' | 'updated'>();
      const times = nextBatch.map((v) => v.readAt.getTime());
      const stored = await findPlain(w.em, OperationsSensorReading, { sensorId: { $in: [...new Set(nextBatch.map((v) => v.sensorId))] }, readAt: { $gte: new Date(Math.min(...times)), $lte: new Date(Math.max(...times)) } });
      const byKey = new Map(stored.map((r) => [readingKey(r.sensorId, r.readAt), r]));
      const inserts = [];
      for (const v of nextBatch) {
        const old = byKey.get(readingKey(v.sensorId, v.readAt));
        if (!old) {
          inserts.push({ sensorId: v.sensorId, readAt: v.readAt, value: v.value, source: 'hub', receivedAt: w.now, changedAt: null });
          out.set(readingKey(v.sensorId, v.readAt), 'created');
        } else if (Number(old.value) !== Number(v.value)) {
          await w.em.nativeUpdate(OperationsSensorReading, { sensorId: v.sensorId, readAt: v.readAt }, { value: v.value, source: 'hub', changedAt: w.now });
          out.set(readingKey(v.sensorId, v.readAt), 'updated');
        }
      }
      if (inserts.length > 0) await w.em.insertMany(OperationsSensorReading, inserts);
      return out;
    },
    same: (a, b) => JSON.stringify(sortedEntries(a)) === JSON.stringify(sortedEntries(b)),
  },
  {
    name: 'operations.sensor-states',
    what: 'the alarm state of a batch\'s 50 sensors stored (latest reading, run start, open alarm)',
    service: operationsService,
    seed: async () => undefined,
    raw: (w) => storeSensorStates(w, hubStates()),
    async orm(w) {
      // the rows are locked already (lockSensors); as entities: loaded, changed, flushed (one batched update)
      const states = hubStates();
      const sensors = await w.em.find(OperationsSensor, { id: { $in: states.map((s) => s.id) } });
      const byId = new Map(sensors.map((s) => [s.id, s]));
      for (const st of states) {
        const s = byId.get(st.id)!;
        s.lastReadAt = st.lastReadAt;
        s.lastValue = st.lastValue;
        s.runStartedAt = st.runStartedAt;
        s.alarmId = st.alarmId;
      }
      await w.em.flush();
    },
  },
  {
    name: 'operations.close-alarms',
    what: 'the alarms a batch ended (5 of the 10 open), each by its own reading',
    service: operationsService,
    seed: async () => undefined,
    raw: (w) => closeAlarms(w, closes),
    async orm(w) {
      const alarms = await w.em.find(OperationsSensorAlarm, { id: { $in: closes.map((c) => c.id) } });
      const byId = new Map(closes.map((c) => [c.id, c]));
      for (const a of alarms) {
        const c = byId.get(a.id)!;
        a.endedAt = c.endedAt;
        a.endedValue = c.endedValue;
        a.updatedAt = w.now;
      }
      await w.em.flush();
    },
  },
  {
    name: 'operations.drop-partition',
    what: 'a month of readings retired: its partition dropped, against the ORM deleting its readings (72,000 here)',
    service: operationsService,
    seed: async () => undefined,
    raw: (w) => dropReadingPartition(w, lastMonthPartition),
    async orm(w) {
      // an unpartitioned table's retention: the month's readings deleted
      await w.em.nativeDelete(OperationsSensorReading, { readAt: { $gte: LAST_MONTH, $lt: monthStart(LAST_MONTH, 1) } });
    },
  },
];

const closes = Array.from({ length: 5 }, (_, i) => ({ id: alarmOf(i, -1), endedAt: at(5), endedValue: '4.000000' }));

function hubStates(): SensorState[] {
  return hubIds.map((id, i) => ({ id, lastReadAt: at(20), lastValue: '3.500000', runStartedAt: null, alarmId: i < 5 ? alarmOf(i, -1) : null }));
}
