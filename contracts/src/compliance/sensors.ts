import { z } from '../zod';
import { BatchResult, ExternalIdParam, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { utcTimestamp } from '../sales/transactions';

/**
 * Sensors and their readings (spec: `POST /sensor-readings`, Limits: readings per sensor; issue 19
 * item 4): a sensor watches a location (and optionally an asset) and raises `sensor.out_of_range` once
 * it has been out of its acceptable range for its delay, and once more when it returns.
 */

/** The most readings `GET /sensors/{id}/readings` answers (spec: Limits, up to 1,000 newest first). */
export const SENSOR_READINGS_MAX = 1000;

const decimal = /^-?\d{1,12}(\.\d{1,6})?$/;
/** A measured value: a decimal string (up to 12 digits, 6 decimals), never a JSON number. */
export const SensorDecimal = z
  .string({ error: (iss) => (typeof iss.input === 'number' ? 'Send measured values as decimal strings, e.g. "4.5".' : 'Required decimal string.') })
  .regex(decimal, 'Must be a decimal string such as "-18.5" (up to 12 digits, 6 decimals).')
  .openapi({ example: '4.5' });

export const SensorKind = z.enum(['temperature', 'humidity', 'other']).openapi({ description: '`temperature` (unit `C` or `F`), `humidity` (unit `%`), `other` (a unit of your own)' });
export type SensorKind = z.output<typeof SensorKind>;

export const SensorStatus = z.enum(['active', 'archived']);

const name = z.string().trim().min(1).max(200);
const unit = z.string().trim().min(1).max(20);
const delay = z
  .number({ error: 'Whole minutes, 0 to 10080 (a week).' })
  .int()
  .min(0)
  .max(10_080)
  .openapi({ description: 'minutes a sensor must stay out of range before the alarm (0: at once)', example: 15 });

/** The fields a sensor is written with (create and external PUT). */
const sensorFields = {
  name,
  kind: SensorKind,
  unit: unit.optional().openapi({ description: '`C` or `F` for temperature; `%` (the default) for humidity; required for `other`' }),
  min: SensorDecimal.nullable().optional().openapi({ description: 'lowest acceptable value (inclusive); null: no lower bound' }),
  max: SensorDecimal.nullable().optional().openapi({ description: 'highest acceptable value (inclusive); null: no upper bound' }),
  alarmDelayMinutes: delay.optional().openapi({ description: 'default 15' }),
  locationId: z.string().min(1).max(64),
  assetId: z.string().min(1).max(64).nullable().optional().openapi({ description: 'the asset it watches (equipment); it must be active and stand at the sensor\'s location' }),
};

/** Kind, unit and range agree (one check for create, replace and the patched whole). */
export function sensorShapeIssues(s: { kind: SensorKind; unit?: string | null; min?: string | null; max?: string | null }): Array<{ path: string; message: string }> {
  const issues: Array<{ path: string; message: string }> = [];
  if (s.kind === 'temperature' && s.unit !== 'C' && s.unit !== 'F') issues.push({ path: 'unit', message: 'A temperature sensor measures in C or F.' });
  if (s.kind === 'humidity' && s.unit != null && s.unit !== '%') issues.push({ path: 'unit', message: 'A humidity sensor measures in % (relative humidity).' });
  if (s.kind === 'other' && !s.unit) issues.push({ path: 'unit', message: 'Name the unit this sensor measures in.' });
  if (s.min == null && s.max == null) issues.push({ path: 'min', message: 'Send min, max or both: the acceptable range.' });
  // zod runs this refinement on a body whose fields failed too: compare only bounds of the decimal form
  if (isDecimal(s.min) && isDecimal(s.max) && compareDecimals(s.min, s.max) > 0) issues.push({ path: 'max', message: `Must be at least min (${s.min}).` });
  return issues;
}

const isDecimal = (v: unknown): v is string => typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v);

/** Compares two decimal strings of SensorDecimal's form exactly (scaled to millionths as integers, no floats). */
function compareDecimals(a: string, b: string): number {
  const scaled = (v: string) => {
    const neg = v.startsWith('-');
    const [i, f = ''] = (neg ? v.slice(1) : v).split('.');
    const n = BigInt(i + f.padEnd(6, '0'));
    return neg ? -n : n;
  };
  const x = scaled(a);
  const y = scaled(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const refineShape = (s: { kind: SensorKind; unit?: string | null; min?: string | null; max?: string | null }, ctx: z.RefinementCtx) => {
  for (const i of sensorShapeIssues(s)) ctx.addIssue({ code: 'custom', path: [i.path], message: i.message });
};

export const SensorCreate = z
  .strictObject({ ...sensorFields, externalId: z.string().min(1).max(200).optional() })
  .superRefine(refineShape)
  .openapi('SensorCreate');
export type SensorCreate = z.output<typeof SensorCreate>;

/** `PUT /sensors/external/{externalId}`: the whole sensor; `status` may archive or restore it. */
export const SensorReplace = z
  .strictObject({ ...sensorFields, status: SensorStatus.optional() })
  .superRefine(refineShape)
  .openapi('SensorReplace');
export type SensorReplace = z.output<typeof SensorReplace>;

/** `PATCH /sensors/{id}`: the fields sent change (null clears a bound, the asset or the externalId); kind, unit and range are checked on the patched whole. */
export const SensorPatch = z
  .strictObject({
    name: name.optional(),
    externalId: z.string().min(1).max(200).nullable().optional(),
    kind: SensorKind.optional(),
    unit: unit.nullable().optional(),
    min: SensorDecimal.nullable().optional(),
    max: SensorDecimal.nullable().optional(),
    alarmDelayMinutes: delay.optional(),
    locationId: z.string().min(1).max(64).optional(),
    assetId: z.string().min(1).max(64).nullable().optional(),
    status: SensorStatus.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Send at least one field to change.' })
  .openapi('SensorPatch');
export type SensorPatch = z.output<typeof SensorPatch>;

export const SensorAlarmState = z
  .object({
    state: z.enum(['in_range', 'out_of_range', 'alarm', 'no_readings']).openapi({ description: '`out_of_range`: out of range, not yet for its delay; `alarm`: `sensor.out_of_range` sent, not yet back' }),
    outOfRangeSince: Timestamp.nullable(),
    alarmId: z.string().nullable(),
  })
  .openapi('SensorAlarmState');

export const Sensor = z
  .object({
    id: z.string().openapi({ example: 'sen_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    externalId: z.string().nullable(),
    name: z.string(),
    kind: SensorKind,
    unit: z.string(),
    min: z.string().nullable(),
    max: z.string().nullable(),
    alarmDelayMinutes: z.number().int(),
    locationId: z.string(),
    assetId: z.string().nullable(),
    status: SensorStatus,
    lastReading: z.object({ readAt: Timestamp, value: z.string() }).nullable(),
    alarm: SensorAlarmState,
    archivedAt: Timestamp.nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Sensor');
export type Sensor = z.output<typeof Sensor>;

export const SensorListQuery = ListQuery.extend({
  locationId: z.string().min(1).max(64).optional(),
  assetId: z.string().min(1).max(64).optional(),
  kind: SensorKind.optional(),
  status: SensorStatus.optional(),
  externalId: z.string().min(1).max(200).optional(),
  alarm: z.enum(['in_range', 'out_of_range', 'alarm', 'no_readings']).optional().openapi({ description: 'only sensors in this alarm state' }),
  updatedSince: Timestamp.optional(),
});

/** One record of `POST /sensor-readings`. */
export const SensorReadingInput = z
  .strictObject({
    externalId: z.string().min(1).max(200).optional().openapi({ description: 'the device\'s own id of the reading, echoed in its result; a reading is identified by its sensor and readAt' }),
    sensorId: z.string().min(1).max(64).optional(),
    sensorExternalId: z.string().min(1).max(200).optional(),
    readAt: utcTimestamp('send readAt in UTC'),
    value: SensorDecimal,
  })
  .superRefine((r, ctx) => {
    if ((r.sensorId === undefined) === (r.sensorExternalId === undefined)) ctx.addIssue({ code: 'custom', path: ['sensorId'], message: 'Send exactly one of sensorId or sensorExternalId.' });
  })
  .openapi('SensorReadingInput');
export type SensorReadingInput = z.output<typeof SensorReadingInput>;

export const SensorReadingBatch = z
  .strictObject({
    source: z.string().trim().min(1).max(100).openapi({ description: 'a stable label per sensor gateway (spec: ingestion rule 1)', example: 'probe-hub-store-12' }),
    readings: z.array(z.unknown()).min(1).max(100_000).openapi({ description: 'SensorReadingInput records; at most API_MAX_BATCH_SIZE (1,000 by default)' }),
  })
  .openapi('SensorReadingBatch');

export const SensorReading = z
  .object({
    readAt: Timestamp,
    value: z.string(),
    inRange: z.boolean().openapi({ description: 'judged against the sensor\'s range now' }),
    receivedAt: Timestamp,
  })
  .openapi('SensorReading');

export const SensorReadingsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(SENSOR_READINGS_MAX).default(SENSOR_READINGS_MAX),
  from: Timestamp.optional().openapi({ description: 'readings at or after this time' }),
  to: Timestamp.optional().openapi({ description: 'readings before this time' }),
});

export const SensorReadings = z
  .object({ sensorId: z.string(), unit: z.string(), min: z.string().nullable(), max: z.string().nullable(), data: z.array(SensorReading) })
  .openapi('SensorReadings');

export const sensorOperations = {
  'POST /sensor-readings': { body: SensorReadingBatch, response: BatchResult, status: 202 },
  'GET /sensors': { query: SensorListQuery, response: listEnvelope(Sensor) },
  'POST /sensors': { body: SensorCreate, response: Sensor, status: 201 },
  'GET /sensors/external/{externalId}': { params: ExternalIdParam, response: Sensor },
  'PUT /sensors/external/{externalId}': { params: ExternalIdParam, body: SensorReplace, response: Sensor, status: 200, alsoStatuses: [201] },
  'GET /sensors/{id}': { params: IdParam, response: Sensor },
  'PATCH /sensors/{id}': { params: IdParam, body: SensorPatch, response: Sensor },
  'DELETE /sensors/{id}': { params: IdParam, response: Sensor },
  'GET /sensors/{id}/readings': { params: IdParam, query: SensorReadingsQuery, response: SensorReadings },
};
