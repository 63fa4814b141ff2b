import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { MeterKind } from '@bop/contracts';

type Actor = { type: string; id: string | null };

/** A piece of equipment at a location (fryer, walk-in, ice machine); archived when disposed, history kept. */
export const Asset = defineEntity({
  name: 'Asset',
  tableName: 'assets',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    category: p.string().nullable(),
    make: p.string().nullable(),
    model: p.string().nullable(),
    serialNumber: p.string().nullable(),
    locationId: p.string(),
    warrantyEndDate: p.string().columnType('date').nullable(),
    status: p.string().$type<'active' | 'archived'>(),
    workOrderOnSensorAlarm: p.boolean(),
    notes: p.string().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    archivedAt: p.datetime().nullable(),
  },
});
export type Asset = InferEntity<typeof Asset>;

/** A move of an asset from one location to another. */
export const AssetMove = defineEntity({
  name: 'AssetMove',
  tableName: 'asset_moves',
  properties: {
    id: p.string().primary(),
    assetId: p.string(),
    fromLocationId: p.string(),
    toLocationId: p.string(),
    movedAt: p.datetime(),
    movedBy: p.json<Actor>(),
  },
});
export type AssetMove = InferEntity<typeof AssetMove>;

/**
 * A meter reading. `total` is the meter's usage over the asset's life: equal to `value` until a
 * reset (a replaced meter), after which it keeps counting from the usage before it.
 */
export const MeterReading = defineEntity({
  name: 'MeterReading',
  tableName: 'meter_readings',
  properties: {
    id: p.string().primary(),
    assetId: p.string(),
    meter: p.string().$type<MeterKind>(),
    value: p.decimal('string'),
    total: p.decimal('string'),
    reset: p.boolean(),
    readAt: p.datetime(),
    recordedAt: p.datetime(),
    recordedBy: p.json<Actor>(),
  },
});
export type MeterReading = InferEntity<typeof MeterReading>;

/** The latest reading (by `readAt`) of each meter of an asset. */
export const AssetMeter = defineEntity({
  name: 'AssetMeter',
  tableName: 'asset_meters',
  properties: {
    assetId: p.string().primary(),
    meter: p.string().$type<MeterKind>().primary(),
    readingId: p.string(),
    value: p.decimal('string'),
    total: p.decimal('string'),
    readAt: p.datetime(),
  },
});
export type AssetMeter = InferEntity<typeof AssetMeter>;
