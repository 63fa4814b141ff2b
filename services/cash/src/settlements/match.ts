import Decimal from 'decimal.js';
import type { ExpectedAmount } from '@bop/contracts';
import { fmtAmount } from '@bop/shared';
import { sumExpected } from '../expected/expected';

/** What a payout covers: `card` the listed tender types, `platform` the platform tenders of its platform. */
export interface SettlementCoverage {
  kind: 'card' | 'platform';
  platform: string | null;
  tenderTypes: string[];
  businessDays: string[];
}

export interface SettlementMatch {
  expectedGross: string;
  difference: string;
  matchStatus: 'matched' | 'mismatched';
}

/** Does this expected amount belong to the payout's tenders (platform names compared case-insensitively)? */
export function coversTender(s: SettlementCoverage, a: ExpectedAmount): boolean {
  if (s.kind === 'platform') return a.tenderType === 'platform' && (a.platform ?? '').toLowerCase() === (s.platform ?? '').toLowerCase();
  return s.tenderTypes.includes(a.tenderType);
}

/**
 * A payout against the expected tenders of the days it covers: expected = Σ of those tenders, difference
 * = gross − expected, `matched` only when equal to the cent.
 */
export function matchSettlement(s: SettlementCoverage & { gross: Decimal.Value }, expected: Map<string, ExpectedAmount[]>): SettlementMatch {
  const total = s.businessDays.reduce((sum, day) => sum.plus(sumExpected(expected.get(day) ?? [], (a) => coversTender(s, a))), new Decimal(0));
  const difference = fmtAmount(new Decimal(s.gross).minus(total));
  return { expectedGross: fmtAmount(total), difference, matchStatus: difference === '0.00' ? 'matched' : 'mismatched' };
}
