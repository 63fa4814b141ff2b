import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A sensor: its configuration (versioned, If-Match) and the alarm state the readings keep under its
 * row lock — the latest reading, the start of the out-of-range run that reading belongs to, and the
 * alarm raised for that run (not versioned: they follow the readings, not a person's edit).
 */
export const OperationsSensor = defineEntity({
  name: 'OperationsSensor',
  tableName: 'sensors',
  properties: {
    id: p.string().primary(),
    externalId: p.string().nullable(),
    name: p.string(),
    kind: p.string().$type<'temperature' | 'humidity' | 'other'>(),
    unit: p.string(),
    min: p.decimal('string').nullable(),
    max: p.decimal('string').nullable(),
    alarmDelayMinutes: p.integer(),
    locationId: p.string(),
    assetId: p.string().nullable(),
    status: p.string().$type<'active' | 'archived'>(),
    archivedAt: p.datetime().nullable(),
    lastReadAt: p.datetime().nullable(),
    lastValue: p.decimal('string').nullable(),
    runStartedAt: p.datetime().nullable(),
    alarmId: p.string().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    actor: p.json<{ type: string; id: string | null }>(),
  },
});
export type OperationsSensor = InferEntity<typeof OperationsSensor>;

/** One excursion that lasted its sensor's delay: raised (`sensor.out_of_range`), then ended by an in-range reading. */
export const OperationsSensorAlarm = defineEntity({
  name: 'OperationsSensorAlarm',
  tableName: 'sensor_alarms',
  properties: {
    id: p.string().primary(),
    sensorId: p.string(),
    locationId: p.string(),
    startedAt: p.datetime(),
    raisedAt: p.datetime(),
    raisedValue: p.decimal('string'),
    raisedBy: p.string().$type<'reading' | 'clock'>(),
    endedAt: p.datetime().nullable(),
    endedValue: p.decimal('string').nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type OperationsSensorAlarm = InferEntity<typeof OperationsSensorAlarm>;

/** One reading: its (sensor, time) is its key; the table is range-partitioned by `read_at` (partitions-store.ts). */
export const OperationsSensorReading = defineEntity({
  name: 'OperationsSensorReading',
  tableName: 'sensor_readings',
  properties: {
    sensorId: p.string().primary(),
    readAt: p.datetime().primary(),
    value: p.decimal('string'),
    source: p.string(),
    receivedAt: p.datetime(),
    /** set when a re-sent reading changed its value (null: as first received) */
    changedAt: p.datetime().nullable(),
  },
});
export type OperationsSensorReading = InferEntity<typeof OperationsSensorReading>;

export const sensorEntities = [OperationsSensor, OperationsSensorAlarm, OperationsSensorReading];
