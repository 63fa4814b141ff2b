import Decimal from 'decimal.js';
import type { CashTenderType, ExpectedAmount } from '@bop/contracts';
import { fmtAmount, sqlQuery, type EntityManager } from '@bop/shared';

/**
 * What money should exist per location, business day, drawer, tender type and platform (issue:
 * "expected amounts … built from sales' internal events … and from POST /cash/tenders"). Which wins:
 * per location, business day and tender type (with its platform), tender totals — once any was sent —
 * replace the amounts derived from sales (the POS's drawer totals include what never was a sale:
 * paid-outs, no-sale openings); otherwise sales' transactions give them (cash net of change, refunds
 * negative, voided transactions nothing).
 */
interface Row {
  business_day: string;
  drawer_id: string | null;
  tender_type: CashTenderType;
  platform: string | null;
  amount: string;
}

// platform names as sources spell them differ in case (UberEats, ubereats): one platform
const tenderKey = (tenderType: string, platform: string | null) => `${tenderType}|${(platform ?? '').toLowerCase()}`;

/** The expected amounts of each of these days of a location (days without any: an empty list). */
export async function expectedAmounts(em: EntityManager, locationId: string, days: string[]): Promise<Map<string, ExpectedAmount[]>> {
  const out = new Map<string, ExpectedAmount[]>(days.map((d) => [d, []]));
  if (days.length === 0) return out;
  const dayList = JSON.stringify(days);
  const fromSales = await sqlQuery<Row>(
    em,
    // kept per day by the sales consumer (expected/consumers.ts): a read does not grow with the day's sales
    `select to_char("business_day", 'YYYY-MM-DD') as "business_day", nullif("drawer_key", '') as "drawer_id", "tender_type",
       case when "tender_type" = 'platform' then nullif("platform_key", '') end as "platform", "amount"::text as "amount"
     from "cash"."expected_sales"
     where "location_id" = ? and "business_day" = any(array(select jsonb_array_elements_text(?::jsonb))::date[]) and "tenders" > 0`,
    [locationId, dayList],
  );
  const fromTotals = await sqlQuery<Row>(
    em,
    `select to_char("business_day", 'YYYY-MM-DD') as "business_day", "drawer_id", "tender_type", "platform", sum("amount")::text as "amount"
     from "cash"."tender_totals"
     where "location_id" = ? and "business_day" = any(array(select jsonb_array_elements_text(?::jsonb))::date[])
     group by 1, 2, 3, 4`,
    [locationId, dayList],
  );
  const reported = new Set(fromTotals.map((r) => `${r.business_day}|${tenderKey(r.tender_type, r.platform)}`));
  const add = (r: Row, source: ExpectedAmount['source']) =>
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

/** A drawer's expected cash of a day (cash tenders net of change). */
export async function expectedDrawerCash(em: EntityManager, locationId: string, businessDay: string, drawerId: string): Promise<Decimal> {
  const amounts = (await expectedAmounts(em, locationId, [businessDay])).get(businessDay) ?? [];
  return sumExpected(amounts, (a) => a.tenderType === 'cash' && a.drawerId === drawerId);
}
