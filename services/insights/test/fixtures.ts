/**
 * The insights tests' chain: organization, people, sales, time and insights on one database and one
 * real bus; locations, employees and pay rates made through their owners' APIs, sales and punches sent
 * as a POS and a timeclock send them, timesheets recalculated by running time's worker.
 */
import { organizationService } from '@svc/organization';
import { peopleService } from '@svc/people';
import { salesService } from '@svc/sales';
import { timeService } from '@svc/time';
import { schedulingService } from '@svc/scheduling';
import { inventoryService } from '@svc/inventory';
import { cashService } from '@svc/cash';
import { filesService } from '@svc/files';
import { FakeClock, integration, standardLocations, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import type { Bus } from '@bop/shared';
import { insightsService } from '../src';

export interface InsightsStack {
  stack: TestServices;
  insights: TestService;
  sales: TestService;
  time: TestService;
  scheduling: TestService;
  inventory: TestService;
  cash: TestService;
  people: TestService;
  /** location ids by externalId (NYC-1: New York, cut-off 04:00; BER-1: Berlin, cut-off 05:00) */
  locations: Record<string, string>;
}

export const pos = integration(['sales:write', 'sales:read']);
export const timeclock = integration(['time:write', 'time:read']);

/** The chain on a fresh database (workers off: time's recalculation runs when the test says); with `files` (exports), files stores in `filesDir`. */
export async function startInsightsStack(o: { filesDir?: string; clock?: FakeClock; bus?: Bus } = {}): Promise<InsightsStack> {
  const defs = [organizationService, peopleService, salesService, timeService, schedulingService, inventoryService, cashService, insightsService, ...(o.filesDir ? [filesService] : [])];
  const env: Record<string, string> = o.filesDir ? { FILES_DIR: o.filesDir, STORAGE_S3_BUCKET: '' } : {};
  const stack = await startTestServices(defs, env, { workers: false, ...(o.clock ? { clock: o.clock } : {}), ...(o.bus ? { bus: o.bus } : {}) });
  const s = stack.services;
  const locations = await standardLocations(stack, ['sales', 'time', 'scheduling', 'inventory', 'cash', 'people', 'insights']);
  return { stack, insights: s.insights, sales: s.sales, time: s.time, scheduling: s.scheduling, inventory: s.inventory, cash: s.cash, people: s.people, locations };
}

let seq = 0;
export const unique = (prefix: string) => `${prefix}-${++seq}-${Date.now().toString(36)}`;

/** A sale (or a refund: a negative amount) of one line, no tax. */
export function sale(locationExternalId: string, occurredAt: string, amount: string, o: { externalId?: string; status?: 'completed' | 'voided' } = {}) {
  const refund = amount.startsWith('-');
  return {
    externalId: o.externalId ?? unique('tx'),
    locationExternalId,
    occurredAt,
    type: refund ? 'refund' : 'sale',
    ...(o.status ? { status: o.status } : {}),
    lines: [{ name: 'Dinner', quantity: refund ? '-1' : '1', unitPrice: refund ? amount.slice(1) : amount }],
    tenders: [{ type: 'card', amount }],
    subtotal: amount,
    tax: '0.00',
    total: amount,
    currency: 'USD',
  };
}

export async function sendSales(s: InsightsStack, transactions: unknown[]): Promise<void> {
  const r = await s.sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source: 'pos-insights', transactions } });
  if (r.status !== 202 || r.body.rejected > 0) throw new Error(`sales batch: ${r.status} ${JSON.stringify(r.body)}`);
}

/** An employee at people with hourly rates (`position` null: every position), all from 2026-01-01. */
export async function employee(s: InsightsStack, home: string, rates: Array<{ amount: string; position?: string }>, positions: string[] = ['Cook', 'Bar']): Promise<string> {
  const e = await s.people.call('POST', '/employees', { body: { legalFirstName: 'Ana', legalLastName: unique('Silva'), homeLocationId: home, hireDate: '2026-01-05', positions } });
  if (e.status !== 201) throw new Error(`employee: ${e.status} ${JSON.stringify(e.body)}`);
  for (const r of rates) {
    const rate = await s.people.call('POST', `/employees/${e.body.id}/pay-rates`, { body: { type: 'hourly', amount: r.amount, position: r.position ?? null, effectiveDate: '2026-01-01' } });
    if (rate.status !== 201) throw new Error(`pay rate: ${rate.status} ${JSON.stringify(rate.body)}`);
  }
  return e.body.id as string;
}

/** One shift's clock-in and clock-out (UTC), in `position` when given. */
export function shift(employeeId: string, locationId: string, from: string, to: string, position?: string) {
  const p = position ? { position } : {};
  return [
    { externalId: unique('in'), employeeId, locationId, type: 'clock_in', occurredAt: from, ...p },
    { externalId: unique('out'), employeeId, locationId, type: 'clock_out', occurredAt: to, ...p },
  ];
}

export async function sendPunches(s: InsightsStack, punches: unknown[]): Promise<void> {
  const r = await s.time.call('POST', '/time/punches:batch', { as: timeclock, body: { source: 'clock-insights', punches } });
  if (r.status !== 202 || r.body.rejected > 0) throw new Error(`punch batch: ${r.status} ${JSON.stringify(r.body)}`);
}

/** A draft shift at scheduling (times in UTC). */
export async function scheduleShift(s: InsightsStack, body: { locationId: string; position: string; employeeId?: string; start: string; end: string; breakMinutes?: number }): Promise<string> {
  const r = await s.scheduling.call('POST', '/shifts', { body });
  if (r.status !== 201) throw new Error(`shift: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

/** Waste of `quantity` units of an item (standard cost `cost`, 100 on hand at that cost) at a location, at `occurredAt`. */
export async function recordWaste(s: InsightsStack, locationId: string, cost: string, quantity: string, occurredAt: string, reason = 'spoiled'): Promise<void> {
  const item = await s.inventory.call('POST', '/items', { body: { name: unique('Salmon'), baseUnit: 'each', cost } });
  if (item.status !== 201) throw new Error(`item: ${item.status} ${JSON.stringify(item.body)}`);
  const opening = await s.inventory.call('POST', '/inventory/adjustments', { body: { locationId, reason: 'opening_balance', occurredAt, lines: [{ itemId: item.body.id, quantity: '100', unitCost: cost }] } });
  if (opening.status !== 201) throw new Error(`opening balance: ${opening.status} ${JSON.stringify(opening.body)}`);
  const waste = await s.inventory.call('POST', '/inventory/waste', { body: { locationId, reason, occurredAt, lines: [{ itemId: item.body.id, quantity }] } });
  if (waste.status !== 201) throw new Error(`waste: ${waste.status} ${JSON.stringify(waste.body)}`);
}

/** A drawer counted `amount` against its `openingFloat` (no cash sales: over/short = amount − float), then the day closed at cash. */
export async function closeCashDay(s: InsightsStack, locationId: string, day: string, countedAt: string, openingFloat: string, amount: string): Promise<void> {
  const count = await s.cash.call('POST', '/cash/counts', { body: { locationId, type: 'drawer', drawerId: 'D1', countedAt, openingFloat, amount } });
  if (count.status !== 201) throw new Error(`count: ${count.status} ${JSON.stringify(count.body)}`);
  const closed = await s.cash.call('POST', `/cash/business-days/${locationId}/${day}:close`);
  if (closed.status !== 200) throw new Error(`close: ${closed.status} ${JSON.stringify(closed.body)}`);
}

/** Runs time's background recalculation until nothing is marked (it emits each changed timesheet). */
export async function recalculate(s: InsightsStack): Promise<void> {
  while ((await s.time.svc.worker('timesheet-recalc').runOnce()) !== false);
}
