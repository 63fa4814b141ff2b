import Decimal from 'decimal.js';
import type { CashTenderType, ExpectedAmount } from '@bop/contracts';
import { fmtAmount } from '@bop/shared';

/**
 * What money should exist per location, business day, drawer, tender type and platform (issue:
 * "expected amounts … built from sales' internal events … and from POST /cash/tenders"). Which wins:
 * per location, business day and tender type (with its platform), tender totals — once any was sent —
 * replace the amounts derived from sales (the POS's drawer totals include what never was a sale:
 * paid-outs, no-sale openings); otherwise sales' transactions give them (cash net of change, refunds
 * negative, voided transactions nothing).
 */
export interface ExpectedRow {
  business_day: string;
  drawer_id: string | null;
  tender_type: CashTenderType;
  platform: string | null;
  amount: string;
}

// platform names as sources spell them differ in case (UberEats, ubereats): one platform
const tenderKey = (tenderType: string, platform: string | null) => `${tenderType}|${(platform ?? '').toLowerCase()}`;

/** The expected amounts of each of these days (days without any: an empty list) from the rows read of sales and of tender totals. */
export function expectedByDay(days: string[], fromSales: ExpectedRow[], fromTotals: ExpectedRow[]): Map<string, ExpectedAmount[]> {
  const out = new Map<string, ExpectedAmount[]>(days.map((d) => [d, []]));
  const reported = new Set(fromTotals.map((r) => `${r.business_day}|${tenderKey(r.tender_type, r.platform)}`));
  const add = (r: ExpectedRow, source: ExpectedAmount['source']) =>
    out.get(r.business_day)?.push({ drawerId: r.drawer_id, tenderType: r.tender_type, platform: r.platform, amount: fmtAmount(r.amount), source });
  for (const r of fromTotals) add(r, 'tender_totals');
  for (const r of fromSales) if (!reported.has(`${r.business_day}|${tenderKey(r.tender_type, r.platform)}`)) add(r, 'sales');
  for (const list of out.values()) {
    list.sort((a, b) => (a.drawerId ?? '').localeCompare(b.drawerId ?? '') || a.tenderType.localeCompare(b.tenderType) || (a.platform ?? '').localeCompare(b.platform ?? ''));
  }
  return out;
}

/** Σ of the expected amounts that pass `filter`. */
export function sumExpected(amounts: ExpectedAmount[], filter: (a: ExpectedAmount) => boolean): Decimal {
  return amounts.filter(filter).reduce((sum, a) => sum.plus(a.amount), new Decimal(0));
}
