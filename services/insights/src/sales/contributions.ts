/** What one sales transaction adds to its location's business day and 15-minute interval. */
export interface SalesContributionInput {
  transactionId: string;
  version: number;
  locationId: string;
  businessDay: string;
  intervalStart: Date;
  /** the subtotal (net of discounts, before tax; negative for a refund), 0 once voided */
  netSales: string;
  /** 1 for a completed sale, 0 for a refund or a voided sale */
  transactions: number;
}

const INTERVAL_MS = 900_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONEY = /^-?\d{1,15}(\.\d{1,6})?$/;

/**
 * What insights reads of sales' internal `sales.transactions.recorded` (data.object: `locationId`,
 * `transactions[]` with `id`, `version`, `occurredAt`, `businessDay`, `status`, `type`, `subtotal`);
 * other fields are ignored. The shape is checked by hand (every sale passes here). Answers the
 * contributions, or the reason the object is not a batch of recorded transactions.
 */
export function salesContributions(object: unknown): SalesContributionInput[] | string {
  const o = object as { locationId?: unknown; transactions?: unknown };
  if (typeof o?.locationId !== 'string' || !Array.isArray(o.transactions)) return 'locationId and transactions[] are required';
  const out: SalesContributionInput[] = [];
  for (let i = 0; i < o.transactions.length; i++) {
    const t = o.transactions[i] as Record<string, unknown>;
    const at = typeof t?.occurredAt === 'string' ? Date.parse(t.occurredAt) : NaN;
    if (typeof t?.id !== 'string' || !Number.isInteger(t.version) || !Number.isFinite(at)) return `transactions.${i}: id, version and occurredAt are required`;
    if (typeof t.businessDay !== 'string' || !DAY.test(t.businessDay)) return `transactions.${i}.businessDay`;
    if (t.status !== 'completed' && t.status !== 'voided') return `transactions.${i}.status`;
    if (typeof t.subtotal !== 'string' || !MONEY.test(t.subtotal)) return `transactions.${i}.subtotal`;
    const completed = t.status === 'completed';
    out.push({
      transactionId: t.id,
      version: t.version as number,
      locationId: o.locationId,
      businessDay: t.businessDay,
      intervalStart: new Date(Math.floor(at / INTERVAL_MS) * INTERVAL_MS),
      netSales: completed ? t.subtotal : '0',
      // as sales' own day summaries count them: completed sales, refunds not counted
      transactions: completed && t.type !== 'refund' ? 1 : 0,
    });
  }
  return out;
}
