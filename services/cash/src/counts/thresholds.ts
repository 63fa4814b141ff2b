import Decimal from 'decimal.js';
import type { OverShortThresholds, OverShortThresholdsReplace } from '@bop/contracts';
import { fmtAmount } from '@bop/shared';

/**
 * Over/short thresholds (supplement: `GET/PUT /cash/over-short-thresholds`): one set for the company,
 * kept as one row (jsonb + version); per location (null: the company default) and count type, an
 * amount or a percentage of the expected amount. Counts and the business-day close read them through
 * `thresholdFor` and `passes`.
 */
export type ThresholdCountType = 'drawer' | 'safe' | 'business_day';

export interface Threshold {
  amount: string | null;
  percent: string | null;
}

export type StoredThreshold = OverShortThresholds['thresholds'][number];

/**
 * Whether an over/short passes a threshold: its absolute value is above the amount, or above the
 * percentage of the (absolute) expected amount. At the limit it does not pass; no threshold, never.
 */
export function passes(overShort: Decimal, expected: Decimal, threshold: Threshold | null): boolean {
  if (!threshold) return false;
  const off = overShort.abs();
  if (threshold.amount !== null) return off.greaterThan(threshold.amount);
  if (threshold.percent !== null) return off.greaterThan(new Decimal(threshold.percent).div(100).times(expected.abs()));
  return false;
}

/** One order and one spelling of every figure, so the same set sent again compares equal. */
export function normalize(body: OverShortThresholdsReplace): StoredThreshold[] {
  return body.thresholds
    .map((t) => ({
      locationId: t.locationId,
      countType: t.countType,
      amount: t.amount != null ? fmtAmount(t.amount) : null,
      percent: t.percent != null ? new Decimal(t.percent).toFixed() : null,
    }))
    .sort((a, b) => (a.locationId ?? '').localeCompare(b.locationId ?? '') || a.countType.localeCompare(b.countType));
}
