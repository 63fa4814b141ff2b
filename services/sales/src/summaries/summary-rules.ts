import Decimal from 'decimal.js';
import { IANAZone } from 'luxon';
import type { SalesSummaryInput } from '@bop/contracts';
import { contentHash, type FieldError } from '@bop/shared';
import { businessDayOf } from '@bop/shared';
import { formatMoney, roundMoney } from '../transactions/money';
import type { ChannelFigures } from './entities';

/** Minor units assumed when a summary names no currency (the spec's summary has none). */
const DEFAULT_MINOR_UNITS = 2;

/** An ingested summary covers an hour or a business day (spec: "an hour or day label"); 25 h covers the day clocks fall back. */
export const MAX_PERIOD_HOURS = 25;

/** Rounds half away from zero to the currency's minor units, or to 2 decimals without a currency. */
export function roundAmount(value: Decimal.Value, currency: string | null): Decimal {
  return currency ? roundMoney(value, currency) : new Decimal(value).toDecimalPlaces(DEFAULT_MINOR_UNITS, Decimal.ROUND_HALF_UP);
}

/** Canonical money string, as `formatMoney` (at least 2 decimals without a currency). */
export function formatAmount(value: Decimal.Value, currency: string | null): string {
  if (currency) return formatMoney(value, currency);
  const d = new Decimal(value);
  const z = d.isZero() ? new Decimal(0) : d;
  return z.decimalPlaces() <= DEFAULT_MINOR_UNITS ? z.toFixed(DEFAULT_MINOR_UNITS) : z.toFixed();
}

/**
 * The arithmetic of one ingested summary (already schema-valid), compared after rounding each side
 * to the currency's minor units (2 without a currency), as transactions are:
 * netSales = grossSales − discounts; when byChannel is sent it is the whole breakdown, so its
 * netSales add up to netSales and its transactions to transactions. Figures are net of refunds, so
 * any money figure may be negative; counts never are (schema).
 */
export function checkSummary(s: SalesSummaryInput): FieldError[] {
  const errors: FieldError[] = [];
  const cur = s.currency ?? null;
  const same = (a: Decimal.Value, b: Decimal.Value) => roundAmount(a, cur).equals(roundAmount(b, cur));
  const show = (v: Decimal.Value) => formatAmount(roundAmount(v, cur), cur);

  const hours = (Date.parse(s.periodEnd) - Date.parse(s.periodStart)) / 3_600_000;
  if (hours > MAX_PERIOD_HOURS) {
    errors.push({ path: 'periodEnd', message: `A summary covers an hour or a business day (at most ${MAX_PERIOD_HOURS} hours); this one covers ${Math.round(hours)} hours.` });
  }
  const net = new Decimal(s.grossSales).minus(s.discounts);
  if (!same(net, s.netSales)) {
    errors.push({ path: 'netSales', message: `netSales is ${show(s.netSales)} but grossSales − discounts is ${show(net)}.` });
  }
  if (s.byChannel && s.byChannel.length > 0) {
    const channelNet = s.byChannel.reduce((sum, c) => sum.plus(c.netSales), new Decimal(0));
    if (!same(channelNet, s.netSales)) {
      errors.push({ path: 'byChannel', message: `The channels' netSales add up to ${show(channelNet)} but netSales is ${show(s.netSales)}.` });
    }
    const channelCount = s.byChannel.reduce((sum, c) => sum + c.transactions, 0);
    if (channelCount !== s.transactions) {
      errors.push({ path: 'byChannel', message: `The channels' transactions add up to ${channelCount} but transactions is ${s.transactions}.` });
    }
  }
  return errors;
}

/** The stored row of an ingested summary (snake_case columns of sales.summaries, as the kit's upsert writes it). */
export function ingestedSummaryRow(s: SalesSummaryInput, locationId: string) {
  const cur = s.currency ?? null;
  const money = (v: string) => formatAmount(v, cur);
  return {
    origin: 'ingested',
    location_id: locationId,
    period_start: new Date(s.periodStart).toISOString(),
    period_end: new Date(s.periodEnd).toISOString(),
    currency: cur,
    gross_sales: money(s.grossSales),
    discounts: money(s.discounts),
    net_sales: money(s.netSales),
    tax: money(s.tax),
    transactions: s.transactions,
    guests: s.guests ?? null,
    by_channel: (s.byChannel ?? []).map((c) => ({ channel: c.channel, netSales: money(c.netSales), transactions: c.transactions })),
  };
}
export type IngestedSummaryRow = ReturnType<typeof ingestedSummaryRow>;

/** Whether two periods share time (touching ends do not: an hour ending at 10:00 and one starting at 10:00 are fine). */
export function periodsOverlap(a: { start: string; end: string }, b: { start: string; end: string }): boolean {
  return Date.parse(a.start) < Date.parse(b.end) && Date.parse(b.start) < Date.parse(a.end);
}

/**
 * The business days (YYYY-MM-DD, in order) a period [start, end) touches at a location (spec:
 * ingestion rule 8): from the day of its start to the day of its last instant — a day summary from
 * cut-off to cut-off is one day; an hour across the cut-off, or a 25-hour period, touches more.
 */
export function businessDaysOfPeriod(periodStart: string, periodEnd: string, timezone: string, cutoff: string): string[] {
  const first = businessDayOf(periodStart, timezone, cutoff);
  const last = businessDayOf(new Date(Math.max(Date.parse(periodStart), Date.parse(periodEnd) - 1)).toISOString(), timezone, cutoff);
  const days = [first];
  for (let d = first; d < last; ) {
    const [y, m, day] = d.split('-').map(Number);
    d = new Date(Date.UTC(y, m - 1, day + 1)).toISOString().slice(0, 10);
    days.push(d);
  }
  return days;
}

/**
 * The first instant whose local wall-clock time at `timezone` is at or after `date` `time` — the
 * boundary `businessDayOf` draws: inside a repeated hour the first pass, inside a skipped hour the
 * instant the clocks jump.
 */
export function firstInstantAt(date: string, time: string, timezone: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const zone = IANAZone.create(timezone);
  const offsetAt = (ms: number) => zone.offset(ms) * 60_000;
  // the instant lies within 14 h of the wall time read as UTC; the offsets 15 h either side are the
  // zone's offsets there (one transition at most); the earliest instant that shows the wall time wins
  const offsets = new Set([offsetAt(wall - 15 * 3_600_000), offsetAt(wall + 15 * 3_600_000)]);
  if (offsets.size === 1) return new Date(wall - [...offsets][0]);
  const exact = [...offsets].map((o) => wall - o).filter((t) => t + offsetAt(t) === wall);
  if (exact.length > 0) return new Date(Math.min(...exact));
  // skipped hour: the transition lies between the instants the two offsets give; find its minute
  let lo = wall - Math.max(...offsets);
  let hi = wall - Math.min(...offsets);
  while (hi - lo > 60_000) {
    const mid = lo + Math.max(1, Math.floor((hi - lo) / 120_000)) * 60_000;
    if (mid + offsetAt(mid) >= wall) hi = mid;
    else lo = mid;
  }
  return new Date(hi);
}

const periodCache = new Map<string, { start: Date; end: Date }>();

/** The business day's period in UTC: from its cut-off to the next day's (spec: ingestion rule 8), DST-correct (23, 24 or 25 hours). */
export function businessDayPeriod(businessDay: string, timezone: string, cutoff: string): { start: Date; end: Date } {
  const key = `${businessDay}|${timezone}|${cutoff}`;
  const hit = periodCache.get(key);
  if (hit) return { start: new Date(hit.start), end: new Date(hit.end) };
  const [y, m, d] = businessDay.split('-').map(Number);
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  const period = { start: firstInstantAt(businessDay, cutoff, timezone), end: firstInstantAt(next, cutoff, timezone) };
  // the worker asks for the same hot days pass after pass; time-zone arithmetic is the costly part
  if (periodCache.size >= 10_000) periodCache.clear();
  periodCache.set(key, period);
  return { start: new Date(period.start), end: new Date(period.end) };
}

/** One group of the day aggregate: the figures of one (location, source, business day, currency, channel). */
export interface ChannelAggregate {
  channel: string | null;
  gross: string;
  discounts: string;
  tax: string;
  /** completed sales (refunds are not counted) */
  sales: number;
  /** completed transactions of any type; a channel with none (all voided) is left out of byChannel */
  completed: number;
}

/** Channel label of transactions sent without one. */
export const UNSPECIFIED_CHANNEL = 'unspecified';

export interface BuiltFigures {
  grossSales: string;
  discounts: string;
  netSales: string;
  tax: string;
  transactions: number;
  byChannel: ChannelFigures[];
}

/**
 * The figures of a built summary from its channel groups: each channel's gross and discounts are
 * rounded to the currency's minor units and its netSales = gross − discounts; the day's figures are
 * the channels' sums, so netSales = grossSales − discounts and byChannel adds up exactly (the same
 * rules an ingested summary is checked against). Tax is the day's sum, rounded once.
 */
export function builtFigures(groups: ChannelAggregate[], currency: string): BuiltFigures {
  let gross = new Decimal(0);
  let discounts = new Decimal(0);
  let tax = new Decimal(0);
  let transactions = 0;
  const byChannel: ChannelFigures[] = [];
  for (const g of groups) {
    const cg = roundMoney(g.gross, currency);
    const cd = roundMoney(g.discounts, currency);
    gross = gross.plus(cg);
    discounts = discounts.plus(cd);
    tax = tax.plus(g.tax);
    transactions += g.sales;
    if (g.completed > 0) byChannel.push({ channel: g.channel ?? UNSPECIFIED_CHANNEL, netSales: formatMoney(cg.minus(cd), currency), transactions: g.sales });
  }
  byChannel.sort((a, b) => (a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0));
  return {
    grossSales: formatMoney(gross, currency),
    discounts: formatMoney(discounts, currency),
    netSales: formatMoney(gross.minus(discounts), currency),
    tax: formatMoney(roundMoney(tax, currency), currency),
    transactions,
    byChannel,
  };
}

/** The internal (source, externalId) key of a built summary: ingested externalIds may not start with `built:`. */
export function builtSummaryKey(locationId: string, businessDay: string, currency: string): string {
  return `built:${locationId}:${businessDay}:${currency}`;
}

/** What a built summary's hash covers: everything a rebuild may change. */
export function builtSummaryHash(f: BuiltFigures & { periodStart: string; periodEnd: string }): string {
  return contentHash({ ...f });
}

/** What one transaction adds to its day's built summary, as exact decimal text. */
export interface TransactionContribution {
  gross: string;
  discounts: string;
  tax: string;
  sales: number;
  completed: number;
}

/**
 * A transaction's share of its day's figures (spec: ingestion rule 9): a completed one adds its lines'
 * gross (quantity × unit price; refunds' negative quantities subtract) and discounts, or its subtotal
 * when it has no lines, and its tax; `sales` counts it when it is a sale. A voided one adds nothing.
 */
export function transactionContribution(t: {
  status: string;
  type: string;
  subtotal: Decimal.Value;
  tax: Decimal.Value;
  lines: Array<{ quantity: Decimal.Value; unitPrice: Decimal.Value; discount?: Decimal.Value | null }>;
}): TransactionContribution {
  if (t.status !== 'completed') return { gross: '0', discounts: '0', tax: '0', sales: 0, completed: 0 };
  let gross = new Decimal(0);
  let discounts = new Decimal(0);
  if (t.lines.length === 0) gross = new Decimal(t.subtotal);
  for (const l of t.lines) {
    gross = gross.plus(new Decimal(l.quantity).times(l.unitPrice));
    discounts = discounts.plus(l.discount ?? 0);
  }
  return { gross: gross.toFixed(), discounts: discounts.toFixed(), tax: new Decimal(t.tax).toFixed(), sales: t.type === 'sale' ? 1 : 0, completed: 1 };
}
