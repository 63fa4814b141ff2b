/**
 * Shared helpers of the cash tests: a stack with organization (locations reach cash's replica through
 * the bus), sales (transactions ingested for real reach cash as `sales.transactions.recorded`) and
 * cash; sales transactions with tenders; integration principals for the batch endpoints.
 */
import { organizationService } from '@svc/organization';
import { salesService } from '@svc/sales';
import { eventually, integration, serviceSql, standardLocations, startTestServices, type ServiceSql, type TestService, type TestServices } from '@bop/test-support';
import { cashService } from '../src';

export interface CashStack {
  stack: TestServices;
  /** SQL on the cash service's connection */
  sql: ServiceSql;
  cash: TestService;
  sales: TestService;
  organization: TestService;
  /** location ids by externalId (NYC-1: New York, cut-off 04:00; BER-1: Berlin, cut-off 05:00) */
  locations: Record<string, string>;
}

/** A POS integration sending sales and cash feeds. */
export const pos = integration(['sales:write', 'sales:read', 'cash:write', 'cash:read']);

/** Organization, sales and cash on a fresh database, two locations replicated into sales and cash. */
export async function startCashStack(env: Record<string, string> = {}): Promise<CashStack> {
  const stack = await startTestServices([organizationService, salesService, cashService], env);
  const s = stack.services;
  const locations = await standardLocations(stack, ['cash', 'sales']);
  return { stack, sql: serviceSql(s.cash), cash: s.cash, sales: s.sales, organization: s.organization, locations };
}

let seq = 0;
/** A unique label (externalIds, references). */
export const unique = (prefix: string) => `${prefix}-${++seq}-${Date.now().toString(36)}`;

export interface TenderSpec {
  type: 'cash' | 'card' | 'digital_wallet' | 'gift_card' | 'voucher' | 'account' | 'platform' | 'other';
  amount: string;
  change?: string;
  platform?: string;
}

/**
 * A sale (or refund: negative `total`) of one line at NYC-1 unless told, paid with `tenders` (amount −
 * change must add up to the total), at `occurredAt` (UTC), on register `registerId`.
 */
export function saleTransaction(o: { externalId?: string; total: string; tenders: TenderSpec[]; occurredAt?: string; registerId?: string; locationExternalId?: string; status?: 'completed' | 'voided' }) {
  const refund = o.total.startsWith('-');
  return {
    externalId: o.externalId ?? unique('tx'),
    locationExternalId: o.locationExternalId ?? 'NYC-1',
    occurredAt: o.occurredAt ?? '2026-11-20T15:00:00Z',
    type: refund ? 'refund' : 'sale',
    ...(o.status ? { status: o.status } : {}),
    ...(o.registerId ? { registerId: o.registerId } : {}),
    lines: [{ name: 'Lunch', quantity: refund ? '-1' : '1', unitPrice: refund ? o.total.slice(1) : o.total }],
    tenders: o.tenders,
    subtotal: o.total,
    tax: '0.00',
    total: o.total,
    currency: 'USD',
  };
}

/** Ingests transactions through sales (202, every record stored) and waits until cash holds their newest versions. */
export async function ingestSales(s: CashStack, transactions: unknown[], source = 'pos-cash'): Promise<string[]> {
  const r = await s.sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source, transactions } });
  if (r.status !== 202) throw new Error(`sales batch: ${r.status} ${JSON.stringify(r.body)}`);
  for (const result of r.body.results) if (!['created', 'updated', 'unchanged'].includes(result.status)) throw new Error(`sales record: ${JSON.stringify(result)}`);
  const ids: string[] = r.body.results.map((x: { id: string }) => x.id);
  const salesSql = serviceSql(s.sales);
  const versions = new Map((await salesSql(`select id, version from sales.transactions where id in (select jsonb_array_elements_text(?::jsonb))`, [JSON.stringify(ids)])).map((row: any) => [row.id, row.version]));
  await eventually(async () => {
    const rows = await s.sql(`select id, version from cash.sales_transactions where id in (select jsonb_array_elements_text(?::jsonb))`, [JSON.stringify(ids)]);
    return rows.length === ids.length && rows.every((row: any) => row.version >= versions.get(row.id));
  }, 15_000);
  return ids;
}
