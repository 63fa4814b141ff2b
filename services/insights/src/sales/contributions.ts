import Decimal from 'decimal.js';

/** What one transaction adds to an item's sales of its day (all its lines of that item together). */
export interface ItemContribution {
  /** `id:<itemId>`, else `sku:`, `ext:`, `name:` of the line's first reference; '' for lines naming no item and the rest of the subtotal */
  key: string;
  itemId: string | null;
  name: string | null;
  quantity: string;
  netSales: string;
}

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
  /** the transaction's channel ('' when it names none) */
  channel: string;
  /** the sending system's label (the event's `source`; '' when absent) */
  source: string;
  /** its net sales per item; they add up to `netSales` (none once voided) */
  items: ItemContribution[];
}

const INTERVAL_MS = 900_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONEY = /^-?\d{1,15}(\.\d{1,6})?$/;
/** line figures keep sales' sub-cent digits */
const LINE = /^-?\d{1,15}(\.\d{1,12})?$/;

/** The item a line counts for: its first reference, in the order sales matches them. */
function itemOf(l: Record<string, unknown>): { key: string; itemId: string | null; name: string | null } {
  const name = typeof l.name === 'string' ? l.name : null;
  if (typeof l.itemId === 'string') return { key: `id:${l.itemId}`, itemId: l.itemId, name };
  if (typeof l.itemSku === 'string') return { key: `sku:${l.itemSku}`, itemId: null, name };
  if (typeof l.itemExternalId === 'string') return { key: `ext:${l.itemExternalId}`, itemId: null, name };
  if (typeof l.itemBarcode === 'string') return { key: `barcode:${l.itemBarcode}`, itemId: null, name };
  if (name) return { key: `name:${name}`, itemId: null, name };
  return { key: '', itemId: null, name: null };
}

/**
 * A transaction's net sales per item: each line's `lineTotal` (quantity × unit price − discount) and
 * quantity, summed per item; what the subtotal holds beyond its lines (a refund sent without lines,
 * sub-cent line prices) goes to the row of no item, so the items add up to the subtotal exactly.
 */
function itemContributions(lines: unknown[], subtotal: string, index: number): ItemContribution[] | string {
  const out = new Map<string, { key: string; itemId: string | null; name: string | null; quantity: Decimal; netSales: Decimal }>();
  let rest = new Decimal(subtotal);
  for (let j = 0; j < lines.length; j++) {
    const l = lines[j] as Record<string, unknown>;
    if (typeof l?.lineTotal !== 'string' || !LINE.test(l.lineTotal) || typeof l.quantity !== 'string' || !LINE.test(l.quantity)) return `transactions.${index}.lines.${j}: quantity and lineTotal are required`;
    const item = itemOf(l);
    const row = out.get(item.key) ?? { ...item, quantity: new Decimal(0), netSales: new Decimal(0) };
    row.quantity = row.quantity.plus(l.quantity);
    row.netSales = row.netSales.plus(l.lineTotal);
    if (row.name === null) row.name = item.name;
    out.set(item.key, row);
    rest = rest.minus(l.lineTotal);
  }
  if (!rest.isZero()) {
    const row = out.get('') ?? { key: '', itemId: null, name: null, quantity: new Decimal(0), netSales: new Decimal(0) };
    row.netSales = row.netSales.plus(rest);
    out.set('', row);
  }
  return [...out.values()].map((r) => ({ key: r.key, itemId: r.itemId, name: r.name, quantity: r.quantity.toFixed(), netSales: r.netSales.toFixed() }));
}

/**
 * What insights reads of sales' internal `sales.transactions.recorded` (data.object: `source`,
 * `locationId`, `transactions[]` with `id`, `version`, `occurredAt`, `businessDay`, `status`, `type`,
 * `subtotal`, `channel`, `lines[]` with their item references, `quantity` and `lineTotal`); other
 * fields are ignored. The shape is checked by hand (every sale passes here). Answers the
 * contributions, or the reason the object is not a batch of recorded transactions.
 */
export function salesContributions(object: unknown): SalesContributionInput[] | string {
  const o = object as { locationId?: unknown; source?: unknown; transactions?: unknown };
  if (typeof o?.locationId !== 'string' || !Array.isArray(o.transactions)) return 'locationId and transactions[] are required';
  const source = typeof o.source === 'string' ? o.source : '';
  const out: SalesContributionInput[] = [];
  for (let i = 0; i < o.transactions.length; i++) {
    const t = o.transactions[i] as Record<string, unknown>;
    const at = typeof t?.occurredAt === 'string' ? Date.parse(t.occurredAt) : NaN;
    if (typeof t?.id !== 'string' || !Number.isInteger(t.version) || !Number.isFinite(at)) return `transactions.${i}: id, version and occurredAt are required`;
    if (typeof t.businessDay !== 'string' || !DAY.test(t.businessDay)) return `transactions.${i}.businessDay`;
    if (t.status !== 'completed' && t.status !== 'voided') return `transactions.${i}.status`;
    if (typeof t.subtotal !== 'string' || !MONEY.test(t.subtotal)) return `transactions.${i}.subtotal`;
    if (t.lines !== undefined && !Array.isArray(t.lines)) return `transactions.${i}.lines`;
    if (t.channel !== undefined && typeof t.channel !== 'string') return `transactions.${i}.channel`;
    const completed = t.status === 'completed';
    const items = completed ? itemContributions((t.lines as unknown[] | undefined) ?? [], t.subtotal, i) : [];
    if (typeof items === 'string') return items;
    out.push({
      transactionId: t.id,
      version: t.version as number,
      locationId: o.locationId,
      businessDay: t.businessDay,
      intervalStart: new Date(Math.floor(at / INTERVAL_MS) * INTERVAL_MS),
      netSales: completed ? t.subtotal : '0',
      // as sales' own day summaries count them: completed sales, refunds not counted
      transactions: completed && t.type !== 'refund' ? 1 : 0,
      channel: typeof t.channel === 'string' ? t.channel : '',
      source,
      items,
    });
  }
  return out;
}
