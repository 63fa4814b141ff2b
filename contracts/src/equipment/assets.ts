import { z } from '../zod';
import { IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { IsoDate } from '../identity/company-settings';
import { Actor, MeterKind, MeterValue, label, ref } from './common';

export const AssetStatus = z.enum(['active', 'archived']);

const assetFields = {
  name: label(120).openapi({ example: 'Fryer 2' }),
  category: label(60).nullable().optional().openapi({ example: 'Fryers' }),
  make: label(100).nullable().optional(),
  model: label(100).nullable().optional(),
  serialNumber: label(100).nullable().optional(),
  warrantyEndDate: IsoDate.nullable().optional().openapi({ description: 'the last day of the warranty' }),
  workOrderOnSensorAlarm: z.boolean().optional().openapi({ description: 'whether a sensor alarm on this asset opens a work order (default false)' }),
  notes: z.string().trim().max(2000).nullable().optional(),
};

export const AssetCreate = z.strictObject({ ...assetFields, locationId: ref }).openapi('AssetCreate');

/** Partial update; a new `locationId` moves the asset (the move is kept in its history). */
export const AssetPatch = z
  .strictObject({ ...assetFields, name: assetFields.name.optional(), locationId: ref.optional().openapi({ description: 'a move to another location' }) })
  .openapi('AssetPatch');

export const Asset = z
  .object({
    id: z.string().openapi({ example: 'ast_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    name: z.string(),
    category: z.string().nullable(),
    make: z.string().nullable(),
    model: z.string().nullable(),
    serialNumber: z.string().nullable(),
    locationId: z.string(),
    warrantyEndDate: IsoDate.nullable(),
    status: AssetStatus.openapi({ description: '`archived`: disposed; its history is kept' }),
    workOrderOnSensorAlarm: z.boolean(),
    notes: z.string().nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archivedAt: Timestamp.nullable(),
  })
  .openapi('Asset');

export const MeterState = z
  .object({ meter: MeterKind, value: z.string(), readAt: Timestamp, readingId: z.string() })
  .openapi('MeterState', { description: 'the latest reading of one meter (by `readAt`)' });

export const AssetMove = z
  .object({ id: z.string(), fromLocationId: z.string(), toLocationId: z.string(), movedAt: Timestamp, movedBy: Actor })
  .openapi('AssetMove');

export const MaintenanceHistoryEntry = z
  .object({
    workOrderId: z.string(),
    title: z.string(),
    maintenancePlanId: z.string().nullable(),
    maintenancePlanName: z.string().nullable(),
    closedAt: Timestamp,
    resolution: z.string().nullable(),
    cost: z.string().nullable(),
  })
  .openapi('MaintenanceHistoryEntry');

export const AssetDetail = Asset.extend({
  meters: z.array(MeterState).openapi({ description: 'the latest reading of each meter' }),
  moves: z.array(AssetMove).openapi({ description: 'moves between locations, oldest first' }),
  maintenanceHistory: z.array(MaintenanceHistoryEntry).openapi({ description: 'closed work orders of the asset (plans done among them), newest first, up to 100' }),
}).openapi('AssetDetail');

export const AssetListQuery = ListQuery.extend({
  locationId: ref.optional(),
  category: label(60).optional(),
  status: AssetStatus.optional(),
  updatedSince: Timestamp.optional(),
});

export const MeterReadingInput = z.strictObject({
  meter: MeterKind,
  value: MeterValue,
  readAt: Timestamp.optional().openapi({ description: 'when the meter was read (default: now); not in the future' }),
  reset: z
    .boolean()
    .optional()
    .openapi({ description: 'the meter was replaced or reset: the value may be lower than the last; only for the newest reading of the meter. Usage before the reset still counts toward maintenance plans.' }),
});

export const MeterReadingsCreate = z
  .strictObject({ readings: z.array(MeterReadingInput).min(1).max(50) })
  .openapi('MeterReadingsCreate');

export const MeterReading = z
  .object({
    id: z.string(),
    assetId: z.string(),
    meter: MeterKind,
    value: z.string(),
    readAt: Timestamp,
    reset: z.boolean(),
    recordedAt: Timestamp,
    recordedBy: Actor,
  })
  .openapi('MeterReading');

export const MeterReadingsAnswer = z
  .object({ assetId: z.string(), readings: z.array(MeterReading), meters: z.array(MeterState) })
  .openapi('MeterReadingsAnswer');

export const assetOperations = {
  'GET /assets': { query: AssetListQuery, response: listEnvelope(Asset) },
  'POST /assets': { body: AssetCreate, response: AssetDetail, status: 201 },
  'GET /assets/{id}': { params: IdParam, response: AssetDetail },
  'PATCH /assets/{id}': { params: IdParam, body: AssetPatch, response: AssetDetail },
  'DELETE /assets/{id}': { params: IdParam, response: AssetDetail },
  'POST /assets/{id}/meter-readings': { params: IdParam, body: MeterReadingsCreate, response: MeterReadingsAnswer, status: 201 },
};
