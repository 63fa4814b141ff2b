import Decimal from 'decimal.js';
import type { DayFigures, ExpectedAmount } from '@bop/contracts';
import { fmtAmount } from '@bop/shared';
import { sumExpected } from '../expected/expected';

/** What a day's figures are made of, as read (figures-store.ts). */
export interface DayRecords {
  expected: Map<string, ExpectedAmount[]>;
  counts: Array<{ business_day: string; type: string; drawer_id: string | null; amount: string; opening_float: string | null; over_short: string | null; exceeded: boolean; latest: boolean }>;
  deposits: Array<{ id: string; amount: string; business_days: string[]; match_status: string }>;
  settlements: Array<{ id: string; kind: string; processor: string; gross: string; difference: string; match_status: string; business_days: string[] }>;
}

/**
 * A business day's figures as they are now (the close keeps a snapshot of them): expected amounts,
 * what the drawers' latest counts found, skims, deposits and payouts covering the day, and every
 * difference in words (the records of `days` read by figures-store.ts).
 */
export function dayFigures(days: string[], records: DayRecords): Map<string, DayFigures> {
  const out = new Map<string, DayFigures>();
  const { expected, counts, deposits, settlements } = records;
  for (const day of days) {
    const amounts = expected.get(day) ?? [];
    const byTender = new Map<string, { tenderType: string; platform: string | null; amount: Decimal }>();
    for (const a of amounts) {
      const k = `${a.tenderType}|${a.platform ?? ''}`;
      const t = byTender.get(k) ?? { tenderType: a.tenderType, platform: a.platform, amount: new Decimal(0) };
      t.amount = t.amount.plus(a.amount);
      byTender.set(k, t);
    }
    const expectedCash = sumExpected(amounts, (a) => a.tenderType === 'cash');
    const ofDay = counts.filter((c) => c.business_day === day);
    const drawers = ofDay.filter((c) => c.type === 'drawer' && c.latest);
    const skims = ofDay.filter((c) => c.type === 'skim').reduce((sum, c) => sum.plus(c.amount), new Decimal(0));
    const countedCash = drawers.reduce((sum, c) => sum.plus(c.amount).minus(c.opening_float ?? 0), new Decimal(0)).plus(skims);
    const overShort = drawers.reduce((sum, c) => sum.plus(c.over_short ?? 0), new Decimal(0));
    const dayDeposits = deposits.filter((d) => d.business_days.includes(day));
    const daySettlements = settlements.filter((x) => x.business_days.includes(day));
    const differences: DayFigures['differences'] = [];
    for (const c of drawers) {
      if (c.over_short !== null && !new Decimal(c.over_short).isZero()) {
        const os = new Decimal(c.over_short);
        differences.push({ kind: 'over_short', amount: fmtAmount(os), message: `Drawer ${c.drawer_id} is ${os.isNegative() ? 'short' : 'over'} by ${fmtAmount(os.abs())}${c.exceeded ? ' (beyond its threshold)' : ''}.` });
      }
    }
    const counted = new Set(drawers.map((c) => c.drawer_id));
    const cashDrawers = new Set(amounts.filter((a) => a.tenderType === 'cash' && a.drawerId !== null && !new Decimal(a.amount).isZero()).map((a) => a.drawerId!));
    for (const d of [...cashDrawers].sort()) {
      if (!counted.has(d)) differences.push({ kind: 'not_counted', amount: fmtAmount(sumExpected(amounts, (a) => a.tenderType === 'cash' && a.drawerId === d)), message: `Drawer ${d} has expected cash but no drawer count.` });
    }
    for (const d of dayDeposits) {
      if (d.match_status === 'unmatched') differences.push({ kind: 'deposit_unmatched', amount: fmtAmount(d.amount), message: `Deposit ${d.id} (${fmtAmount(d.amount)}) is not seen at the bank yet.` });
      if (d.match_status === 'mismatched') differences.push({ kind: 'deposit_mismatch', amount: fmtAmount(d.amount), message: `Deposit ${d.id} (${fmtAmount(d.amount)}) differs from its bank transaction.` });
    }
    for (const x of daySettlements) {
      if (x.match_status === 'mismatched') differences.push({ kind: 'settlement_mismatch', amount: fmtAmount(x.difference), message: `Payout ${x.id} from ${x.processor} (gross ${fmtAmount(x.gross)}) differs from the expected tenders by ${fmtAmount(x.difference)}.` });
    }
    out.set(day, {
      expected: amounts,
      expectedByTender: [...byTender.values()].map((t) => ({ tenderType: t.tenderType, platform: t.platform, amount: fmtAmount(t.amount) })),
      expectedCash: fmtAmount(expectedCash),
      drawersCounted: drawers.length,
      countedCash: fmtAmount(countedCash),
      overShort: fmtAmount(overShort),
      skims: fmtAmount(skims),
      deposits: dayDeposits.map((d) => ({ depositId: d.id, amount: fmtAmount(d.amount), businessDays: d.business_days, matchStatus: d.match_status })),
      settled: daySettlements.map((x) => ({ settlementId: x.id, kind: x.kind, processor: x.processor, gross: fmtAmount(x.gross), matchStatus: x.match_status })),
      differences,
    });
  }
  return out;
}
