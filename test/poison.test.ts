/**
 * Every consumer of every service fed poison (issue 13: one bad record never stalls a consumer):
 * events a producer could have published — `data.object` null, of the wrong shape, or carrying a
 * NUL in a value the consumer stores — go out on the real Postgres bus, then a good event of the same
 * type. Each poison ends in that service's `dead_letters` with its payload as JSON text (NUL and all,
 * `JSON.parse` gives it back) and the good event after it is applied (in `processed_events`, written
 * in the handler's own transaction). The table must name every consumer the services run.
 */
import { newId, type BusMessage } from '@bop/shared';
import { cashService } from '@svc/cash';
import { integrationsService } from '@svc/integrations';
import { inventoryService } from '@svc/inventory';
import { purchasingService } from '@svc/purchasing';
import { salesService } from '@svc/sales';
import { webhooksService } from '@svc/webhooks';
import { peopleService } from '@svc/people';
import { filesService } from '@svc/files';
import { identityService } from '@svc/identity';
import { timeService } from '@svc/time';
import { operationsService } from '@svc/operations';
import { equipmentService } from '@svc/equipment';
import { communicationService } from '@svc/communication';
import { insightsService } from '@svc/insights';
import { schedulingService } from '@svc/scheduling';
import { eventually, sql, startTestServices, type TestServices } from '@bop/test-support';

let stack: TestServices;

beforeAll(async () => {
  // one attempt: a poison is parked at its first failure (the retries are the runner test's subject)
  stack = await startTestServices([cashService, integrationsService, inventoryService, purchasingService, salesService, webhooksService, peopleService, filesService, identityService, timeService, schedulingService, operationsService, equipmentService, communicationService, insightsService], { CONSUMER_MAX_ATTEMPTS: '1' });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const now = () => new Date().toISOString();
const NUL = '\u0000';

/** A stock level as inventory's `stock.level_changed` carries it. */
const stockLevel = (over: Record<string, unknown>) => ({
  itemId: 'itm_x', locationId: 'loc_x', onHand: '5', reserved: '0', available: '5', averageCost: '2', value: '10', parLevel: null, reorderPoint: null, belowReorderPoint: false, version: 1, updatedAt: now(), ...over,
});
/** A receipt as purchasing's internal `purchasing.receipt.recorded` carries it (one priced line). */
const receipt = (over: Record<string, unknown>) => ({
  id: `prc_${newId('event').slice(4)}`, purchaseOrderId: 'po_x', supplierId: 'sup_x', locationId: newId('location'), receivedAt: now(), note: null, lines: [{ itemId: 'itm_x', quantity: '2', unitCost: '1.5', value: '3.00' }], ...over,
});
/** A purchase order as `purchase_order.*` carries the fields insights reads (no lines). */
const purchaseOrder = (over: Record<string, unknown>) => ({
  id: `po_${newId('event').slice(4)}`, supplierId: 'sup_x', locationId: 'loc_x', status: 'draft', expectedDeliveryDate: null, lines: [], version: 1, ...over,
});

interface Case {
  /** service and consumer name (the group is `<service>.<consumer>`) */
  service: string;
  consumer: string;
  topic: string;
  type: string;
  /** `data.object` of poison events (each must be parked) */
  poisons: unknown[];
  /** `data.object` of a good event of the same type */
  good: () => Record<string, unknown>;
}

const location = (over: Record<string, unknown> = {}) => ({ id: newId('location'), name: 'Poison test', externalId: null, timezone: 'UTC', businessDayCutoff: '04:00', status: 'active', orgUnitId: null, updatedAt: now(), ...over });
const orgUnit = (over: Record<string, unknown> = {}) => ({ id: `oun_${newId('event').slice(4)}`, parentId: null, status: 'active', updatedAt: now(), ...over });
const recordedForCash = (over: Record<string, unknown> = {}) => ({
  locationId: newId('location'),
  transactions: [{ id: `txn_${newId('event').slice(4)}`, version: 1, businessDay: '2026-11-20', status: 'completed', tenders: [{ type: 'cash', amount: '10.00' }] }],
  ...over,
});
const recordedForInventory = (over: Record<string, unknown> = {}) => ({
  locationId: newId('location'),
  reason: 'ingested',
  transactions: [{ id: `txn_${newId('event').slice(4)}`, version: 1, type: 'sale', status: 'completed', occurredAt: now(), lines: [{ itemId: null, quantity: '1' }] }],
  ...over,
});

/** An employee as people's events carry it (the fields time's replica keeps). */
const replicaEmployee = (over: Record<string, unknown> = {}) => ({
  id: `emp_${newId('event').slice(4)}`,
  externalId: null,
  employeeNumber: null,
  legalFirstName: 'Pat',
  legalLastName: 'Lee',
  preferredName: null,
  status: 'active',
  homeLocationId: 'loc_x',
  locationIds: [],
  departmentId: null,
  positions: [],
  hireDate: '2026-01-05',
  terminationDate: null,
  userId: null,
  version: 1,
  updatedAt: now(),
  ...over,
});

/** A shift as scheduling's shift.changed carries it (the fields communication's replica keeps). */
const replicaShift = (over: Record<string, unknown> = {}) => ({
  id: `shf_${newId('event').slice(4)}`,
  locationId: 'loc_x',
  employeeId: 'emp_x',
  position: 'cook',
  start: '2026-12-24T09:00:00Z',
  end: '2026-12-24T17:00:00Z',
  localStart: '2026-12-24T09:00:00+00:00',
  status: 'published',
  version: 1,
  updatedAt: now(),
  ...over,
});

/** Per location/org-unit replica: the same two consumers in each service that keeps one. */
const replicaCases = (service: string): Case[] => [
  { service, consumer: 'location-replica', topic: 'organization', type: 'location.created', poisons: [null, location({ id: `loc_${NUL}x` }), location({ updatedAt: 'not a time' })], good: () => location() },
  { service, consumer: 'org-unit-replica', topic: 'organization', type: 'org_unit.created', poisons: [null, orgUnit({ id: `oun_${NUL}x` })], good: () => orgUnit() },
];

const cases: Case[] = [
  ...['cash', 'inventory', 'purchasing', 'sales', 'people', 'files', 'time', 'scheduling', 'operations', 'equipment', 'communication', 'insights'].flatMap(replicaCases),
  {
    service: 'people',
    consumer: 'department-replica',
    topic: 'organization',
    type: 'department.created',
    poisons: [null, { id: `dep_${NUL}x`, status: 'active' }, { id: 'dep_x', status: 'active', updatedAt: 'not a time' }],
    good: () => ({ id: `dep_${newId('event').slice(4)}`, name: 'Kitchen', locationId: null, status: 'active', updatedAt: now() }),
  },
  {
    service: 'people',
    consumer: 'employee-user-link',
    topic: 'identity',
    type: 'identity.user.updated',
    poisons: [null, { id: `usr_${NUL}x`, employeeId: 'emp_x' }],
    good: () => ({ id: `usr_${newId('event').slice(4)}`, employeeId: null }),
  },
  {
    service: 'identity',
    consumer: 'employee-access',
    topic: 'people',
    type: 'employee.terminated',
    poisons: [null, { id: `emp_${NUL}x`, status: 'terminated' }],
    good: () => ({ id: `emp_${newId('event').slice(4)}`, status: 'terminated', terminationDate: '2026-11-20' }),
  },
  ...['time', 'scheduling', 'operations', 'equipment', 'communication', 'insights'].map((service): Case => ({
    service,
    consumer: 'employee-replica',
    topic: 'people',
    type: 'employee.updated',
    poisons: [null, replicaEmployee({ id: `emp_${NUL}x` }), replicaEmployee({ hireDate: 'not a date' }), replicaEmployee({ version: 'two' })],
    good: () => replicaEmployee(),
  })),
  {
    service: 'communication',
    consumer: 'shift-replica',
    topic: 'scheduling',
    type: 'shift.changed',
    poisons: [null, { id: 'shf_x', status: 'published' }, replicaShift({ id: `shf_${NUL}x` })],
    good: () => replicaShift(),
  },
  {
    service: 'communication',
    consumer: 'shift-publication',
    topic: 'scheduling',
    type: 'schedule.published',
    poisons: [null, { locationId: 'loc_x', shiftIds: 'shf_x' }, { locationId: 'loc_x', shiftIds: [`shf_${NUL}x`] }],
    good: () => ({ locationId: 'loc_x', from: '2026-12-24', to: '2026-12-24', published: 1, openShifts: 0, shiftIds: [`shf_${newId('event').slice(4)}`], publishedAt: now() }),
  },
  {
    service: 'communication',
    consumer: 'notifications',
    topic: 'scheduling',
    type: 'shift.changed',
    poisons: [null, { id: 'shf_x', status: 'published' }, replicaShift({ id: `shf_${NUL}x` })],
    good: () => replicaShift(),
  },
  {
    service: 'communication',
    consumer: 'channel-membership',
    topic: 'people',
    type: 'employee.updated',
    poisons: [null, { id: 'emp_x', status: 'active', version: 1 }, replicaEmployee({ id: `emp_${NUL}x` })],
    good: () => replicaEmployee(),
  },
  {
    service: 'communication',
    consumer: 'employee-contacts',
    topic: 'people',
    type: 'employee.updated',
    poisons: [null, replicaEmployee({ version: 'two' }), replicaEmployee({ id: `emp_${NUL}x`, email: 'pat@example.com' })],
    good: () => replicaEmployee({ email: 'pat@example.com' }),
  },
  {
    service: 'files',
    consumer: 'attachment-audiences',
    topic: 'communication',
    type: 'communication.attachments.audience',
    poisons: [null, { audienceId: 'aud_x', version: 'one', employeeIds: null, attachmentIds: [] }, { audienceId: `aud_${NUL}x`, version: 1, employeeIds: null, attachmentIds: [] }],
    good: () => ({ audienceId: `aud_${newId('event').slice(4)}`, version: 1, employeeIds: ['emp_x'], attachmentIds: [] }),
  },
  {
    service: 'identity',
    consumer: 'email-requests',
    topic: 'insights',
    type: 'insights.email.requested',
    poisons: [null, { to: 'ops@example.com', subject: 'Report' }, { to: 'ops@example.com', subject: `Report${NUL}`, body: 'The link' }],
    good: () => ({ to: 'ops@example.com', subject: 'Report', body: 'The link' }),
  },
  {
    service: 'communication',
    consumer: 'insights-display-metrics',
    topic: 'insights',
    type: 'insights.display_kpis.updated',
    poisons: [null, { locationId: 'loc_x', measuredAt: 'today', metrics: [] }, { locationId: 'loc_x', measuredAt: new Date().toISOString(), metrics: [{ name: 'sales_today', value: '1.00' }] }],
    good: () => ({ locationId: `loc_${newId('event').slice(4)}`, businessDay: '2026-12-01', measuredAt: new Date().toISOString(), metrics: [{ name: 'insights.net_sales_today', value: '1.00', unit: null, label: 'Sales today' }] }),
  },
  {
    service: 'equipment',
    consumer: 'sensor-alarms',
    topic: 'operations',
    type: 'sensor.out_of_range',
    poisons: [
      null,
      { id: 'exc_x', state: 'melting' },
      { id: 'exc_y', sensorId: 'sen_x', sensorName: `P${NUL}`, locationId: 'loc_x', assetId: 'ast_x', state: 'out_of_range', value: '9', unit: null, min: null, max: '5', outOfRangeSince: new Date().toISOString(), readAt: new Date().toISOString() },
    ],
    good: () => ({ id: `exc_${newId('event').slice(4)}`, sensorId: 'sen_x', sensorName: 'Probe', locationId: 'loc_x', assetId: null, state: 'out_of_range', value: '9', unit: 'C', min: '0', max: '5', outOfRangeSince: new Date().toISOString(), readAt: new Date().toISOString() }),
  },
  ...['time', 'scheduling', 'operations', 'equipment', 'communication', 'insights'].map((service): Case => ({
    service,
    consumer: 'pay-rate-replica',
    topic: 'people',
    type: 'pay_rate.changed',
    poisons: [null, { id: 'prt_x', employeeId: 'emp_x', type: 'hourly', amount: 'lots', effectiveDate: '2026-01-01' }, { id: `prt_${NUL}`, employeeId: 'emp_x', type: 'hourly', amount: '1', effectiveDate: '2026-01-01' }],
    good: () => ({ id: `prt_${newId('event').slice(4)}`, employeeId: 'emp_x', type: 'hourly', amount: '18.50', position: null, effectiveDate: '2026-01-01' }),
  })),
  {
    service: 'cash',
    consumer: 'expected-tenders',
    topic: 'sales',
    type: 'sales.transactions.recorded',
    poisons: [null, recordedForCash({ transactions: [null] }), recordedForCash({ locationId: `loc_${NUL}` })],
    good: () => recordedForCash(),
  },
  {
    service: 'inventory',
    consumer: 'sales-depletion',
    topic: 'sales',
    type: 'sales.transactions.recorded',
    poisons: [null, recordedForInventory({ transactions: 'all of them' }), recordedForInventory({ locationId: `loc_${NUL}`, transactions: [{ id: 'txn_nul', version: 1, type: 'sale', status: 'completed', occurredAt: now(), lines: [{ itemId: 'itm_unknown', quantity: '1' }] }] })],
    good: () => recordedForInventory(),
  },
  {
    service: 'integrations',
    consumer: 'ingestion-batches',
    topic: 'cash',
    type: 'cash.batch.completed',
    // a NUL in a batch's text is kept (as U+FFFD: services/integrations/test/poison-batch.test.ts), not parked
    poisons: [null, { batchId: 'bat_x', source: 7, transactions: [null] }],
    good: () => ({ batchId: `bat_${newId('event').slice(4)}`, integrationId: 'int_unknown', source: 'till', endpoint: 'POST /cash/bank-transactions', received: 1, created: 1, updated: 0, rejected: 0, createdAt: now() }),
  },
  {
    service: 'inventory',
    consumer: 'order-release',
    topic: 'sales',
    type: 'sales_order.cancelled',
    poisons: [null, { id: `so_${NUL}x` }],
    good: () => ({ id: `so_${newId('event').slice(4)}`, status: 'cancelled' }),
  },
  {
    service: 'inventory',
    consumer: 'purchase-receipts',
    topic: 'purchasing',
    type: 'purchasing.receipt.recorded',
    poisons: [null, { id: 'prc_x', lines: [{ itemId: 5 }] }],
    good: () => ({ id: `prc_${newId('event').slice(4)}`, purchaseOrderId: 'po_x', supplierId: 'sup_x', locationId: newId('location'), receivedAt: now(), note: null, lines: [] }),
  },
  {
    service: 'sales',
    consumer: 'item-replica',
    topic: 'inventory',
    type: 'item.created',
    poisons: [null, { id: 'itm_x', name: ['not', 'a', 'name'] }],
    good: () => ({ id: `itm_${newId('event').slice(4)}`, sku: null, barcodes: [], externalId: null, name: 'Flour', status: 'active', updatedAt: now() }),
  },
  {
    service: 'sales',
    consumer: 'closed-days',
    topic: 'cash',
    type: 'cash.business_day_closed',
    poisons: [null, { locationId: `loc_${NUL}`, businessDay: '2026-11-20', status: 'closed', updatedAt: now() }],
    good: () => ({ locationId: newId('location'), businessDay: '2026-11-20', status: 'closed', closedAt: now(), updatedAt: now() }),
  },
  {
    service: 'scheduling',
    consumer: 'approved-time-off',
    topic: 'time',
    type: 'time_off.approved',
    poisons: [null, { id: 'tor_x', employeeId: 'emp_x' }, { id: `tor_${NUL}`, employeeId: 'emp_x', startDate: '2026-12-01', endDate: '2026-12-01', version: 1 }, { id: 'tor_y', employeeId: 'emp_x', startDate: 'soon', endDate: '2026-12-01', version: 1 }],
    good: () => ({ id: `tor_${newId('event').slice(4)}`, employeeId: 'emp_x', startDate: '2026-12-01', endDate: '2026-12-02', partialHours: null, status: 'approved', version: 2 }),
  },
  {
    service: 'scheduling',
    consumer: 'terminated-employee-shifts',
    topic: 'people',
    type: 'employee.terminated',
    poisons: [null, { id: `emp_${NUL}x`, terminationDate: '2026-11-20' }],
    // scheduling's employee replica reads the same event: the good one is a whole employee
    good: () => replicaEmployee({ status: 'terminated', terminationDate: '2026-11-20' }),
  },
  {
    service: 'scheduling',
    consumer: 'sales-demand',
    topic: 'sales',
    type: 'sales.transactions.recorded',
    poisons: [null, recordedForInventory({ transactions: [{ id: 'txn_x', version: 1 }] }), recordedForInventory({ locationId: `loc_${NUL}`, transactions: [{ id: 'txn_nul', version: 1, status: 'completed', type: 'sale', occurredAt: now(), subtotal: '1.00' }] })],
    good: () => recordedForInventory({ transactions: [{ id: `txn_${newId('event').slice(4)}`, version: 1, status: 'completed', type: 'sale', occurredAt: now(), subtotal: '4.50' }] }),
  },
  {
    service: 'insights',
    consumer: 'sales-read-model',
    topic: 'sales',
    type: 'sales.transactions.recorded',
    poisons: [
      null,
      recordedForInventory({ transactions: [{ id: 'txn_x', version: 1, status: 'completed', type: 'sale', occurredAt: now(), businessDay: '2026-11-20', subtotal: 4.5 }] }),
      recordedForInventory({ locationId: `loc_${NUL}`, transactions: [{ id: 'txn_nul', version: 1, status: 'completed', type: 'sale', occurredAt: now(), businessDay: '2026-11-20', subtotal: '1.00' }] }),
    ],
    good: () => recordedForInventory({ transactions: [{ id: `txn_${newId('event').slice(4)}`, version: 1, status: 'completed', type: 'sale', occurredAt: now(), businessDay: '2026-11-20', subtotal: '4.50' }] }),
  },
  {
    service: 'insights',
    consumer: 'labor-read-model',
    topic: 'time',
    type: 'time.timesheet.calculated',
    poisons: [
      null,
      { id: 'tsh_x', employeeId: 'emp_x', version: 2, days: [{ date: '2026-11-20', regularHours: 8, overtime: {}, shifts: [] }] },
      { id: 'tsh_nul', employeeId: `emp_${NUL}`, version: 2, days: [{ date: '2026-11-20', regularHours: '8.00', overtime: {}, shifts: [{ start: now(), locationId: 'loc_x', position: null, workedHours: '8.00' }] }] },
    ],
    good: () => ({ id: `tsh_${newId('event').slice(4)}`, employeeId: 'emp_x', version: 2, days: [{ date: '2026-11-20', regularHours: '8.00', overtime: {}, shifts: [{ start: now(), locationId: 'loc_x', position: null, workedHours: '8.00' }] }] }),
  },
  {
    service: 'insights',
    consumer: 'scheduled-shifts',
    topic: 'scheduling',
    type: 'shift.changed',
    poisons: [
      null,
      { id: 'shf_x', version: 1, locationId: 'loc_x', status: 'draft', localStart: '2026-11-20T08:00:00-05:00', paidHours: 8 },
      { id: 'shf_nul', version: 1, locationId: `loc_${NUL}`, status: 'draft', localStart: '2026-11-20T08:00:00-05:00', paidHours: '8' },
    ],
    good: () => ({ id: `shf_${newId('event').slice(4)}`, version: 1, locationId: 'loc_x', employeeId: null, position: 'Cook', status: 'draft', localStart: '2026-11-20T08:00:00-05:00', paidHours: '8' }),
  },
  {
    service: 'insights',
    consumer: 'published-schedules',
    topic: 'scheduling',
    type: 'schedule.published',
    poisons: [null, { locationId: 'loc_x', shiftIds: 'all' }, { locationId: 'loc_x', shiftIds: [`shf_${NUL}`] }],
    good: () => ({ locationId: 'loc_x', from: '2026-11-20', to: '2026-11-20', published: 0, openShifts: 0, shiftIds: [], publishedAt: now() }),
  },
  {
    service: 'insights',
    consumer: 'waste-read-model',
    topic: 'inventory',
    type: 'waste.recorded',
    poisons: [null, { id: 'wst_x', locationId: 'loc_x', businessDay: '2026-11-20', totalValue: 10 }, { id: `wst_${NUL}`, locationId: 'loc_x', businessDay: '2026-11-20', totalValue: '10.00' }],
    good: () => ({ id: `wst_${newId('event').slice(4)}`, reason: 'spoiled', locationId: 'loc_x', businessDay: '2026-11-20', totalValue: '10.00', lines: [] }),
  },
  {
    service: 'insights',
    consumer: 'over-short-read-model',
    topic: 'cash',
    type: 'cash.business_day_closed',
    poisons: [null, { locationId: 'loc_x', businessDay: '2026-11-20', figures: { overShort: -5 } }, { locationId: `loc_${NUL}`, businessDay: '2026-11-20', figures: { overShort: '-5.00' } }],
    good: () => ({ locationId: newId('location'), businessDay: '2026-11-20', status: 'closed', figures: { overShort: '-5.00' } }),
  },
  {
    service: 'insights',
    consumer: 'stock-flow-read-model',
    topic: 'inventory',
    type: 'inventory.movements.posted',
    poisons: [
      null,
      { locationId: 'loc_x', sums: [{ itemId: 'itm_x', businessDay: '2026-11-20', type: 'sale', reason: null, quantity: -2, value: '-4', unvalued: 0 }] },
      { locationId: `loc_${NUL}`, sums: [{ itemId: 'itm_x', businessDay: '2026-11-20', type: 'sale', reason: null, quantity: '-2', value: '-4', unvalued: 0 }] },
    ],
    good: () => ({ locationId: newId('location'), sums: [{ itemId: 'itm_x', businessDay: '2026-11-20', type: 'sale', reason: null, quantity: '-2', value: '-4', unvalued: 0 }] }),
  },
  {
    service: 'insights',
    consumer: 'stock-level-read-model',
    topic: 'inventory',
    type: 'stock.level_changed',
    poisons: [null, { itemId: 'itm_x', locationId: 'loc_x', onHand: 5 }, stockLevel({ itemId: `itm_${NUL}` })],
    good: () => stockLevel({ itemId: `itm_${newId('event').slice(4)}` }),
  },
  {
    service: 'insights',
    consumer: 'purchase-price-read-model',
    topic: 'purchasing',
    type: 'purchasing.receipt.recorded',
    poisons: [null, { id: 'prc_x', lines: [{ itemId: 5 }] }, receipt({ supplierId: `sup_${NUL}` })],
    good: () => receipt({}),
  },
  {
    service: 'insights',
    consumer: 'purchase-order-read-model',
    topic: 'purchasing',
    type: 'purchase_order.created',
    poisons: [null, { id: 'po_x', lines: 'all' }, purchaseOrder({ locationId: `loc_${NUL}` })],
    good: () => purchaseOrder({}),
  },
  {
    service: 'insights',
    consumer: 'forecast-read-model',
    topic: 'scheduling',
    type: 'scheduling.forecast.fitted',
    poisons: [
      null,
      { locationId: 'loc_x', driver: 'net_sales', fittedAt: now(), days: [{ date: '2099-11-20', start: '2099-11-20T00:00:00Z', total: 100, hours: [] }] },
      { locationId: `loc_${NUL}`, driver: 'net_sales', fittedAt: now(), days: [{ date: '2099-11-20', start: '2099-11-20T00:00:00Z', total: '100.00', hours: ['100.00'] }] },
    ],
    good: () => ({ locationId: newId('location'), driver: 'net_sales', fittedAt: now(), days: [{ date: '2099-11-20', start: '2099-11-20T00:00:00Z', total: '100.00', hours: ['100.00'] }] }),
  },
  {
    service: 'webhooks',
    consumer: 'fan-out',
    topic: 'identity',
    type: 'identity.feature.enabled',
    poisons: [null, { key: `sales${NUL}`, enabled: true, effective: true }],
    good: () => ({ key: 'sales', enabled: true, effective: true }),
  },
];

const envelope = (type: string, object: unknown) => {
  const id = newId('event');
  return { id, type, createdAt: now(), apiVersion: 'v1', actor: { type: 'system', id: 'system' }, locationId: null, data: { object } };
};
const message = (c: Case, payload: ReturnType<typeof envelope>): BusMessage => ({ topic: c.topic, key: `poison-${c.consumer}`, eventId: payload.id, type: c.type, payload });

describe('a poison event never stalls a consumer', () => {
  it('the table names every consumer of every service', () => {
    const running = Object.values(stack.services).flatMap((s) => s.svc.consumers.groups());
    expect(running.sort()).toEqual(cases.map((c) => `${c.service}.${c.consumer}`).sort());
  });

  it.each(cases.map((c) => [`${c.service}.${c.consumer}`, c] as const))('%s parks each poison as text and applies the good event after it', async (group, c) => {
    const poisons = c.poisons.map((object) => envelope(c.type, object));
    const good = envelope(c.type, c.good());
    await stack.bus.publish([...poisons, good].map((p) => message(c, p)));

    const schema = c.service;
    await eventually(async () => (await sql(stack, `select 1 from "${schema}"."processed_events" where "consumer" = $1 and "event_id" = $2`, [group, good.id])).length === 1, 30_000);
    const parked = await sql<{ event_id: string; payload: unknown; error: string; topic: string; type: string }>(
      stack,
      `select "event_id", "payload", "error", "topic", "type" from "${schema}"."dead_letters" where "consumer" = $1 and "event_id" = any($2)`,
      [group, poisons.map((p) => p.id)],
    );
    expect(parked.map((r) => r.event_id).sort()).toEqual(poisons.map((p) => p.id).sort());
    for (const row of parked) {
      expect(typeof row.payload).toBe('string');
      expect(JSON.parse(row.payload as string)).toEqual(poisons.find((p) => p.id === row.event_id));
      expect(row).toMatchObject({ topic: c.topic, type: c.type });
      expect(row.error).not.toContain(NUL);
    }
    // the good event was parked by no consumer of the service
    expect(await sql(stack, `select 1 from "${schema}"."dead_letters" where "event_id" = $1`, [good.id])).toEqual([]);
  });
});
