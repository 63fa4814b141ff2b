import type { SalesSummary as SalesSummaryDto } from '@bop/contracts';
import { formatAmount } from './summary-rules';
import type { ChannelFigures, SalesSummaryEntity } from './entities';

/** A summary as stored, camelCase (entity or raw row mapped). */
export interface SummaryShape {
  id: string;
  source: string;
  externalId: string;
  origin: string;
  locationId: string;
  businessDay: string | null;
  periodStart: Date | string;
  periodEnd: Date | string;
  currency: string | null;
  grossSales: string;
  discounts: string;
  netSales: string;
  tax: string;
  transactions: number;
  guests: number | null;
  byChannel: ChannelFigures[];
  version: number;
  createdAt: Date | string;
  updatedAt: Date | string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** The API representation; a built summary shows `day:<businessDay>` (its stored key is internal). */
export function summaryDto(s: SummaryShape): SalesSummaryDto {
  const cur = s.currency ?? null;
  // numeric(18,6) reads back as "12.500000"
  const money = (v: string) => formatAmount(v, cur);
  return {
    id: s.id,
    source: s.source,
    origin: s.origin as SalesSummaryDto['origin'],
    externalId: s.origin === 'built' && s.businessDay ? `day:${s.businessDay}` : s.externalId,
    locationId: s.locationId,
    businessDay: s.businessDay ?? null,
    periodStart: iso(s.periodStart),
    periodEnd: iso(s.periodEnd),
    currency: cur,
    grossSales: money(s.grossSales),
    discounts: money(s.discounts),
    netSales: money(s.netSales),
    tax: money(s.tax),
    transactions: s.transactions,
    guests: s.guests ?? null,
    byChannel: s.byChannel.map((c) => ({ channel: c.channel, netSales: money(c.netSales), transactions: c.transactions })),
    version: s.version,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  };
}

export const summaryEntityDto = (s: SalesSummaryEntity): SalesSummaryDto =>
  summaryDto({ ...s, currency: s.currency ?? null, businessDay: s.businessDay ?? null, guests: s.guests ?? null });

/** A raw `sales.summaries` row (snake_case, as `select *` returns it) in camelCase. */
export function summaryFromRow(r: Record<string, any>): SummaryShape {
  return {
    id: r.id,
    source: r.source,
    externalId: r.external_id,
    origin: r.origin,
    locationId: r.location_id,
    businessDay: r.business_day == null ? null : dayString(r.business_day),
    periodStart: r.period_start,
    periodEnd: r.period_end,
    currency: r.currency ?? null,
    grossSales: String(r.gross_sales),
    discounts: String(r.discounts),
    netSales: String(r.net_sales),
    tax: String(r.tax),
    transactions: Number(r.transactions),
    guests: r.guests == null ? null : Number(r.guests),
    byChannel: typeof r.by_channel === 'string' ? JSON.parse(r.by_channel) : r.by_channel,
    version: Number(r.version),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A `date` column as YYYY-MM-DD, whether the driver hands it over as text or as a Date at UTC midnight. */
export function dayString(v: unknown): string {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v).slice(0, 10);
}
