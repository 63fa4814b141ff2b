import { z } from '../zod';
import { IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { IsoDate } from '../identity/company-settings';
import { Actor, label, ref } from './common';

export const WorkOrderStatus = z.enum(['open', 'in_progress', 'closed', 'cancelled']);
export const WorkOrderPriority = z.enum(['low', 'medium', 'high', 'urgent']);

/** Money of a work order: a non-negative decimal string with up to 2 decimals. */
const Cost = z
  .string({ error: (iss) => (typeof iss.input === 'number' ? 'Send amounts as decimal strings such as "120.50".' : 'Required decimal string.') })
  .regex(/^(0|[1-9]\d{0,11})(\.\d{1,2})?$/, 'Use a non-negative decimal string with up to 2 decimals such as "120.50".')
  .openapi({ example: '120.50' });
const UnitCost = z
  .string({ error: (iss) => (typeof iss.input === 'number' ? 'Send amounts as decimal strings such as "12.5".' : 'Required decimal string.') })
  .regex(/^(0|[1-9]\d{0,11})(\.\d{1,4})?$/, 'Use a non-negative decimal string with up to 4 decimals such as "12.5".');
const PartQuantity = z
  .string({ error: (iss) => (typeof iss.input === 'number' ? 'Send quantities as decimal strings such as "2".' : 'Required decimal string.') })
  .regex(/^(0|[1-9]\d{0,11})(\.\d{1,6})?$/, 'Use a decimal string greater than zero with up to 6 decimals such as "2".')
  .refine((v) => Number(v) > 0, 'The quantity must be greater than zero.');

export const PartUsedInput = z.strictObject({ name: label(200), quantity: PartQuantity, unitCost: UnitCost.optional() });
export const PartUsed = z.object({ name: z.string(), quantity: z.string(), unitCost: z.string().nullable(), lineCost: z.string().nullable() });

const text = (max: number) => z.string().trim().min(1).max(max);

export const WorkOrderCreate = z
  .strictObject({
    title: text(200).openapi({ example: 'Fryer 2 does not heat' }),
    description: z.string().trim().max(4000).nullable().optional(),
    assetId: ref.optional().openapi({ description: 'the asset concerned (its location is the work order\'s)' }),
    locationId: ref.optional().openapi({ description: 'required without an asset' }),
    maintenancePlanId: ref.optional().openapi({ description: 'the plan this work carries out: closing the work order resets the plan\'s next due' }),
    priority: WorkOrderPriority.optional(),
    assigneeEmployeeId: ref.nullable().optional(),
    vendor: label(200).nullable().optional(),
    dueDate: IsoDate.nullable().optional(),
    notes: z.string().trim().max(4000).nullable().optional(),
  })
  .superRefine((b, ctx) => {
    if (!b.assetId && !b.locationId && !b.maintenancePlanId) ctx.addIssue({ code: 'custom', path: ['locationId'], message: 'Name the asset or the location.' });
  })
  .openapi('WorkOrderCreate');

export const WorkOrderPatch = z
  .strictObject({
    title: text(200).optional(),
    description: z.string().trim().max(4000).nullable().optional(),
    priority: WorkOrderPriority.optional(),
    assigneeEmployeeId: ref.nullable().optional(),
    vendor: label(200).nullable().optional(),
    dueDate: IsoDate.nullable().optional(),
    notes: z.string().trim().max(4000).nullable().optional(),
  })
  .openapi('WorkOrderPatch');

export const WorkOrderClose = z
  .strictObject({
    resolution: text(4000).openapi({ example: 'Replaced the thermostat' }),
    cost: Cost.optional().openapi({ description: 'total cost of the work (default: the parts\' cost when unit costs are given)' }),
    parts: z.array(PartUsedInput).max(100).optional(),
    notes: z.string().trim().max(4000).nullable().optional(),
  })
  .openapi('WorkOrderClose');

export const WorkOrderCancel = z.strictObject({ reason: text(1000) }).openapi('WorkOrderCancel');

export const WorkOrder = z
  .object({
    id: z.string().openapi({ example: 'wor_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    title: z.string(),
    description: z.string().nullable(),
    status: WorkOrderStatus,
    priority: WorkOrderPriority,
    assetId: z.string().nullable(),
    locationId: z.string(),
    source: z.enum(['manual', 'maintenance_plan', 'sensor_alarm']).openapi({ description: 'what raised it' }),
    maintenancePlanId: z.string().nullable(),
    sensorAlarm: z
      .object({ id: z.string(), sensorId: z.string(), sensorName: z.string(), value: z.string(), unit: z.string().nullable(), min: z.string().nullable(), max: z.string().nullable(), outOfRangeSince: Timestamp })
      .nullable(),
    assigneeEmployeeId: z.string().nullable(),
    vendor: z.string().nullable(),
    dueDate: IsoDate.nullable(),
    notes: z.string().nullable(),
    resolution: z.string().nullable(),
    cancelReason: z.string().nullable(),
    cost: z.string().nullable(),
    parts: z.array(PartUsed),
    partsCost: z.string().nullable().openapi({ description: 'sum of the parts\' line costs (those with a unit cost)' }),
    startedAt: Timestamp.nullable(),
    closedAt: Timestamp.nullable().openapi({ description: 'when it was closed or cancelled' }),
    createdBy: Actor,
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('WorkOrder');

export const WorkOrderHistoryEntry = z
  .object({
    at: Timestamp,
    actor: Actor,
    action: z.enum(['created', 'updated', 'started', 'closed', 'cancelled', 'sensor_back_in_range']),
    changes: z.array(z.object({ field: z.string(), from: z.unknown(), to: z.unknown() })),
    note: z.string().nullable(),
  })
  .openapi('WorkOrderHistoryEntry');

export const WorkOrderDetail = WorkOrder.extend({ history: z.array(WorkOrderHistoryEntry).openapi({ description: 'every change, oldest first' }) }).openapi('WorkOrderDetail');

export const WorkOrderListQuery = ListQuery.extend({
  status: WorkOrderStatus.optional(),
  locationId: ref.optional(),
  assetId: ref.optional(),
  priority: WorkOrderPriority.optional(),
  updatedSince: Timestamp.optional(),
});

export const workOrderOperations = {
  'GET /work-orders': { query: WorkOrderListQuery, response: listEnvelope(WorkOrder) },
  'POST /work-orders': { body: WorkOrderCreate, response: WorkOrderDetail, status: 201 },
  'GET /work-orders/{id}': { params: IdParam, response: WorkOrderDetail },
  'PATCH /work-orders/{id}': { params: IdParam, body: WorkOrderPatch, response: WorkOrderDetail },
  'POST /work-orders/{id}:start': { params: IdParam, response: WorkOrderDetail },
  'POST /work-orders/{id}:close': { params: IdParam, body: WorkOrderClose, response: WorkOrderDetail },
  'POST /work-orders/{id}:cancel': { params: IdParam, body: WorkOrderCancel, response: WorkOrderDetail },
};
