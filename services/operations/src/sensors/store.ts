import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import { sensorShapeIssues, type Sensor, type SensorCreate, type SensorListQuery, type SensorPatch, type SensorReadings, type SensorReadingsQuery, type SensorReplace } from '@bop/contracts';
import {
  actorOf,
  assertLocationInReach,
  changedFields,
  Conflict,
  findPage,
  findPlain,
  fmtQuantity,
  lockForTransaction,
  locationFilter,
  mapPage,
  newId,
  NotFound,
  ValidationError,
  writableLocations,
  type ApiError,
  type FieldError,
  type ListPage,
  type Work,
} from '@bop/shared';
import { OperationsSensor, OperationsSensorReading } from './entities';
import { sensorDto } from './dto';
import { assetErrors } from './asset-check';
import { isInRange, replayAlarm } from './alarm-rules';
import { applyAlarmReplays, openAlarms } from './alarm-store';

/** The fields a sensor write sets (create, replace and patch all end here). */
interface SensorFields {
  externalId: string | null;
  name: string;
  kind: OperationsSensor['kind'];
  unit: string;
  min: string | null;
  max: string | null;
  alarmDelayMinutes: number;
  locationId: string;
  assetId: string | null;
  status: 'active' | 'archived';
}

const dec = (v: string | null | undefined) => (v === null || v === undefined ? null : fmtQuantity(v));
/** Humidity is measured in % unless told otherwise (the contract refuses any other unit). */
const unitOf = (kind: SensorFields['kind'], unit: string | null | undefined) => unit ?? (kind === 'humidity' ? '%' : '');

const fieldsOf = (s: OperationsSensor): SensorFields => ({
  externalId: s.externalId ?? null,
  name: s.name,
  kind: s.kind,
  unit: s.unit,
  min: dec(s.min),
  max: dec(s.max),
  alarmDelayMinutes: s.alarmDelayMinutes,
  locationId: s.locationId,
  assetId: s.assetId ?? null,
  status: s.status,
});

export const createFields = (b: SensorCreate | (SensorReplace & { externalId: string }), stored: OperationsSensor | null = null): SensorFields => ({
  externalId: b.externalId ?? null,
  name: b.name,
  kind: b.kind,
  unit: unitOf(b.kind, b.unit),
  min: dec(b.min),
  max: dec(b.max),
  alarmDelayMinutes: b.alarmDelayMinutes ?? 15,
  locationId: b.locationId,
  assetId: b.assetId ?? null,
  // a sync never revives an archived sensor unless it says so
  status: ('status' in b && b.status) || stored?.status || 'active',
});

function patchFields(s: OperationsSensor, b: SensorPatch): SensorFields {
  const f = fieldsOf(s);
  const pick = <K extends keyof SensorFields>(k: K, v: SensorFields[K] | undefined) => (v === undefined ? f[k] : v);
  const kind = pick('kind', b.kind);
  return {
    externalId: pick('externalId', b.externalId),
    name: pick('name', b.name),
    kind,
    // a new kind without a unit takes its default (humidity: %), else the unit stays
    unit: b.unit !== undefined ? unitOf(kind, b.unit) : b.kind !== undefined && b.kind !== s.kind ? unitOf(kind, null) : f.unit,
    min: b.min === undefined ? f.min : dec(b.min),
    max: b.max === undefined ? f.max : dec(b.max),
    alarmDelayMinutes: pick('alarmDelayMinutes', b.alarmDelayMinutes),
    locationId: pick('locationId', b.locationId),
    assetId: pick('assetId', b.assetId),
    status: pick('status', b.status),
  };
}

export function sensorConflictFor(constraint: string | undefined): ApiError {
  if (constraint === 'sensors_external_id_uq') return new Conflict('Another sensor already has this externalId.', [{ path: 'externalId', message: 'Already used by another sensor.' }]);
  return new Conflict('Another sensor was written at the same time; send the request again.');
}

/**
 * 422 for a location that is unknown or archived, a kind/unit/range that disagree, an asset that is
 * not active at the sensor's location; 409 for an externalId another sensor holds. Only what changes
 * is checked against other services (an archived location keeps its sensors).
 */
async function assertValid(w: Work, next: SensorFields, stored: OperationsSensor | null): Promise<void> {
  const errors: FieldError[] = sensorShapeIssues(next);
  assertLocationInReach(w.reach(), next.locationId);
  const moved = next.locationId !== stored?.locationId;
  if (moved) errors.push(...(await writableLocations(w, [{ id: next.locationId, path: 'locationId', takes: 'sensors' }])).errors);
  if (errors.length > 0) throw new ValidationError(errors);
  if (next.assetId !== null && (moved || next.assetId !== (stored?.assetId ?? null)) && next.status === 'active') {
    const assets = await assetErrors(w, next.assetId, next.locationId);
    if (assets.length > 0) throw new ValidationError(assets);
  }
  if (next.externalId !== null && next.externalId !== (stored?.externalId ?? null)) {
    const other = await w.em.findOne(OperationsSensor, { externalId: next.externalId, id: { $ne: stored?.id ?? '' } });
    if (other) throw new Conflict(`Sensor ${other.id} already has externalId ${next.externalId}.`, [{ path: 'externalId', message: `Already used by sensor ${other.id}.` }]);
  }
}

/** The sensor's change events (the project's own public types, issue 41 item 3): data.object the sensor as the API returns it. */
const sensorEvent = (w: Work, type: 'sensor.created' | 'sensor.updated' | 'sensor.archived', dto: Sensor, previous?: Record<string, unknown>) =>
  w.emit({ type, aggregateType: 'sensor', aggregateId: dto.id, locationId: dto.locationId, object: dto, ...(previous ? { previous } : {}) });

async function createSensor(w: Work, fields: SensorFields): Promise<Sensor> {
  await assertValid(w, fields, null);
  const sensor = w.em.create(OperationsSensor, {
    id: newId('sensor'),
    ...fields,
    archivedAt: fields.status === 'archived' ? w.now : null,
    lastReadAt: null,
    lastValue: null,
    runStartedAt: null,
    alarmId: null,
    version: 1,
    createdAt: w.now,
    updatedAt: w.now,
    actor: actorOf(w.actor),
  });
  await w.em.flush();
  const dto = sensorDto(sensor);
  sensorEvent(w, 'sensor.created', dto);
  return dto;
}

/** Replaces a locked sensor's fields; the same fields → nothing written (no version). A new range re-judges the latest reading. */
async function updateSensor(w: Work, sensor: OperationsSensor, next: SensorFields): Promise<Sensor> {
  const before = fieldsOf(sensor);
  if (JSON.stringify(before) === JSON.stringify(next)) return sensorDto(sensor);
  w.checkVersion(sensor.version);
  await assertValid(w, next, sensor);
  const previous = sensorDto(sensor);
  const archivedAt = next.status !== 'archived' ? null : sensor.status === 'archived' ? (sensor.archivedAt ?? w.now) : w.now;
  Object.assign(sensor, { ...next, archivedAt, version: sensor.version + 1, updatedAt: w.now, actor: actorOf(w.actor) });
  if (before.min !== next.min || before.max !== next.max) await rejudgeLatest(w, sensor);
  await w.em.flush();
  const dto = sensorDto(sensor);
  sensorEvent(w, previous.status !== 'archived' && dto.status === 'archived' ? 'sensor.archived' : 'sensor.updated', dto, changedFields(previous, dto));
  return dto;
}

/**
 * A changed range judges the latest reading again: back in range closes an open alarm
 * (`back_in_range`, decided by that reading); newly out of range starts a run at that reading (the
 * delay counts from there; earlier readings are not re-judged).
 */
async function rejudgeLatest(w: Work, sensor: OperationsSensor): Promise<void> {
  if (!sensor.lastReadAt || sensor.lastValue == null) return;
  const last = { readAt: sensor.lastReadAt, value: sensor.lastValue };
  if (isInRange(last.value, { min: sensor.min ?? null, max: sensor.max ?? null })) {
    if (sensor.alarmId) {
      const alarms = (await openAlarms(w, [sensor.alarmId])).get(sensor.id) ?? [];
      const replay = { raises: [], closes: alarms.map((a) => ({ id: a.id, endedBy: last })), runStartedAt: null };
      const { events } = await applyAlarmReplays(w, [{ sensor: { ...sensor, assetId: sensor.assetId ?? null, min: sensor.min ?? null, max: sensor.max ?? null }, replay, alarms }]);
      for (const e of events) w.emit(e);
    }
    sensor.runStartedAt = null;
    sensor.alarmId = null;
  } else if (!sensor.runStartedAt) {
    sensor.runStartedAt = sensor.lastReadAt;
  }
}

/** `POST /sensors`. */
export async function createSensorFrom(w: Work, body: SensorCreate): Promise<Sensor> {
  return createSensor(w, createFields(body));
}

/** `PUT /sensors/external/{externalId}`: creates the sensor (201) or replaces it (200); the same content again changes nothing. */
export async function putSensorByExternalId(w: Work, externalId: string, body: SensorReplace): Promise<{ status: number; sensor: Sensor }> {
  // concurrent first PUTs of one externalId queue here: one creates, the others then replace
  await lockForTransaction(w.em, `${w.schema}.sensors ${JSON.stringify(externalId)}`);
  const existing = await w.em.findOne(OperationsSensor, { externalId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!existing) return { status: 201, sensor: await createSensor(w, createFields({ ...body, externalId })) };
  assertLocationInReach(w.reach(), existing.locationId);
  return { status: 200, sensor: await updateSensor(w, existing, createFields({ ...body, externalId }, existing)) };
}

/** A sensor by id or externalId within the reach: 404 when unknown, 403 out of reach. */
export async function getSensor(w: Work, by: { id: string } | { externalId: string }, opts: { lock?: boolean } = {}): Promise<OperationsSensor> {
  const sensor = await w.em.findOne(OperationsSensor, by, opts.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!sensor) throw 'id' in by ? new NotFound('sensor', by.id) : new NotFound('sensor with externalId', by.externalId);
  assertLocationInReach(w.reach(), sensor.locationId);
  return sensor;
}

/** `PATCH /sensors/{id}` (If-Match guards it even when nothing changes). */
export async function patchSensor(w: Work, id: string, body: SensorPatch): Promise<Sensor> {
  const sensor = await getSensor(w, { id }, { lock: true });
  w.checkVersion(sensor.version);
  return updateSensor(w, sensor, patchFields(sensor, body));
}

/** `DELETE /sensors/{id}`: archived — its readings and alarms kept, new readings refused. Archiving an archived sensor changes nothing. */
export async function archiveSensor(w: Work, id: string): Promise<Sensor> {
  const sensor = await getSensor(w, { id }, { lock: true });
  return updateSensor(w, sensor, { ...fieldsOf(sensor), status: 'archived' });
}

/** `GET /sensors`: oldest first, by cursor, within the reach. */
export async function listSensors(w: Work, q: z.output<typeof SensorListQuery>): Promise<ListPage<Sensor>> {
  const { limit, cursor, locationId, assetId, kind, status, externalId, alarm, updatedSince } = q;
  const alarmFilter =
    alarm === 'alarm'
      ? { alarmId: { $ne: null } }
      : alarm === 'out_of_range'
        ? { runStartedAt: { $ne: null }, alarmId: null }
        : alarm === 'in_range'
          ? { lastReadAt: { $ne: null }, runStartedAt: null, alarmId: null }
          : alarm === 'no_readings'
            ? { lastReadAt: null }
            : null;
  const inLocations = locationFilter(w.reach(), locationId);
  const page = await findPage(
    w.em,
    OperationsSensor,
    [
      inLocations !== undefined && { locationId: inLocations },
      assetId && { assetId },
      kind && { kind },
      status && { status },
      externalId && { externalId },
      alarmFilter,
    ],
    { limit, cursor, updatedSince },
  );
  return mapPage(page, sensorDto);
}

/** `GET /sensors/{id}/readings`: newest first, at most `limit` (≤ 1,000), within [from, to); each judged against the range now. */
export async function listReadings(w: Work, id: string, q: z.output<typeof SensorReadingsQuery>): Promise<z.output<typeof SensorReadings>> {
  const sensor = await getSensor(w, { id });
  const readAt = { ...(q.from !== undefined ? { $gte: new Date(q.from) } : {}), ...(q.to !== undefined ? { $lt: new Date(q.to) } : {}) };
  const rows = await findPlain(w.em, OperationsSensorReading, { sensorId: sensor.id, ...(Object.keys(readAt).length > 0 ? { readAt } : {}) }, { orderBy: { readAt: 'desc' }, limit: q.limit });
  const range = { min: sensor.min ?? null, max: sensor.max ?? null };
  return {
    sensorId: sensor.id,
    unit: sensor.unit,
    min: dec(sensor.min),
    max: dec(sensor.max),
    data: rows.map((r) => ({ readAt: r.readAt.toISOString(), value: fmtQuantity(r.value), inRange: isInRange(r.value, range), receivedAt: r.receivedAt.toISOString() })),
  };
}

/**
 * The periodic check: active sensors whose latest reading is out of range, no alarm raised, and whose
 * delay has passed by the clock since the run began — each raised once, under its row lock (re-read
 * there, so a batch that just brought it back in range wins). Answers how many were raised.
 */
export async function raiseDueAlarms(w: Work, take: number): Promise<number> {
  const due = await dueSensorIds(w, take);
  if (due.length === 0) return 0;
  const sensors = await w.em.find(OperationsSensor, { id: { $in: due } }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } });
  const replays = sensors.flatMap((s) => {
    if (s.status !== 'active' || !s.runStartedAt || s.alarmId || !s.lastReadAt || s.lastValue == null) return [];
    const range = { min: s.min ?? null, max: s.max ?? null, alarmDelayMinutes: s.alarmDelayMinutes };
    const replay = replayAlarm({ range, runStartedAt: s.runStartedAt, readings: [{ readAt: s.lastReadAt, value: s.lastValue }], alarms: [], now: w.now });
    return replay.raises.length > 0 ? [{ sensor: { ...s, assetId: s.assetId ?? null, min: s.min ?? null, max: s.max ?? null }, replay, alarms: [] }] : [];
  });
  const { events, openAlarm } = await applyAlarmReplays(w, replays);
  for (const s of sensors) if (openAlarm.has(s.id)) s.alarmId = openAlarm.get(s.id) ?? null;
  await w.em.flush();
  for (const e of events) w.emit(e);
  return replays.length;
}

/** The first `take` sensors (by id) whose alarm is due: active, out of range, no alarm yet, and their delay passed by the clock. */
export async function dueSensorIds(w: Work, take: number): Promise<string[]> {
  // the candidates (a partial index holds them), the delay (a column) compared with the clock here
  const candidates = await findPlain(w.em, OperationsSensor, { runStartedAt: { $ne: null }, alarmId: null, status: 'active' }, { orderBy: { id: 'asc' } });
  return candidates
    .filter((s) => s.runStartedAt!.getTime() + s.alarmDelayMinutes * 60_000 <= w.now.getTime())
    .slice(0, take)
    .map((s) => s.id);
}
