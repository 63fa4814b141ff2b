import Decimal from 'decimal.js';
import type { SalesOrderInput } from '@bop/contracts';
import { contentHash, type FieldError } from '@bop/shared';
import { formatMoney, formatQuantity, minorUnits, roundMoney } from '../transactions/money';
import type { StoredLine } from '../transactions/normalize';

export type OrderStatus = 'open' | 'reserved' | 'shipped' | 'cancelled';

/** spec: Sales order states, `shipped` and `cancelled` are final (no way out). */
export const FINAL_STATUSES: ReadonlySet<OrderStatus> = new Set(['shipped', 'cancelled']);

export interface OrderCustomer {
  externalId: string | null;
  name: string | null;
  email: string | null;
}

export interface OrderAddress {
  line1: string;
  line2: string | null;
  city: string;
  region: string | null;
  postalCode: string | null;
  country: string;
}

export interface OrderShipping {
  method: string;
  amount: string;
  address: OrderAddress | null;
}

/** An order line as stored: the same shape as a transaction's line. */
export type OrderLine = StoredLine;

/** An order as sent, in canonical form (what the hashes cover). */
export interface OrderContent {
  locationId: string;
  customer: OrderCustomer | null;
  placedAt: string | null;
  lines: Array<Omit<OrderLine, 'itemId' | 'lineTotal'>>;
  shipping: OrderShipping | null;
  paymentStatus: string | null;
  status: 'open' | 'cancelled';
  cancelReason: string | null;
  currency: string;
}

export interface OrderTotals {
  subtotal: string;
  taxTotal: string;
  shippingTotal: string;
  total: string;
}

export interface NormalizedOrder extends OrderTotals {
  content: OrderContent;
  /** the lines as stored: with `lineTotal`, `itemId` null until matched */
  lines: OrderLine[];
  /** sha256 of everything sent */
  contentHash: string;
  /** sha256 of what a final order can no longer change: everything but status, cancelReason and paymentStatus */
  coreHash: string;
}

/** numeric(18,6): 12 integer digits. */
const MAX_AMOUNT = new Decimal('1e12');

const positive = (d: Decimal) => d.isPositive() && !d.isZero();

/**
 * The rules of one order as sent (already schema-valid): quantities above zero, no negative money,
 * charged amounts (discount, tax, shipping) in the currency's minor units, discount within the line,
 * figures that fit the stored precision. unitPrice may carry more decimals (per-unit prices of cheap goods).
 */
export function checkOrder(input: SalesOrderInput): FieldError[] {
  const errors: FieldError[] = [];
  const cur = input.currency;
  const minor = minorUnits(cur);
  const charged = (value: string | undefined, path: string) => {
    if (value === undefined) return;
    const d = new Decimal(value);
    if (d.isNegative() && !d.isZero()) errors.push({ path, message: 'Must be zero or more.' });
    else if (d.decimalPlaces() > minor) errors.push({ path, message: `${cur} amounts have at most ${minor} decimals.` });
  };
  let total = new Decimal(0);
  input.lines.forEach((line, i) => {
    const q = new Decimal(line.quantity);
    const price = new Decimal(line.unitPrice);
    if (!positive(q)) errors.push({ path: `lines[${i}].quantity`, message: 'Must be greater than zero.' });
    if (price.isNegative() && !price.isZero()) errors.push({ path: `lines[${i}].unitPrice`, message: 'Must be zero or more.' });
    if (line.itemExternalId === undefined && line.itemSku === undefined && line.itemBarcode === undefined) {
      // spec: ingestion rule 3, a line names its item so it can be matched or queued
      errors.push({ path: `lines[${i}].itemExternalId`, message: 'Send itemExternalId, itemSku or itemBarcode.' });
    }
    charged(line.discount, `lines[${i}].discount`);
    charged(line.tax, `lines[${i}].tax`);
    const gross = q.times(price);
    if (line.discount !== undefined && new Decimal(line.discount).greaterThan(gross)) {
      errors.push({ path: `lines[${i}].discount`, message: `The discount is more than quantity × unitPrice (${formatMoney(roundMoney(gross, cur), cur)}).` });
    }
    const lineTotal = gross.minus(line.discount ?? '0');
    if (lineTotal.abs().greaterThanOrEqualTo(MAX_AMOUNT)) errors.push({ path: `lines[${i}]`, message: 'The line total is too large.' });
    total = total.plus(lineTotal).plus(line.tax ?? '0');
  });
  if (input.shipping) {
    charged(input.shipping.amount, 'shipping.amount');
    total = total.plus(input.shipping.amount);
  }
  if (errors.length === 0 && total.abs().greaterThanOrEqualTo(MAX_AMOUNT)) errors.push({ path: 'lines', message: 'The order total is too large.' });
  return errors;
}

/** quantity × unitPrice − discount, rounded to the currency's minor units (half away from zero, like tills). */
export function orderLineTotal(line: { quantity: string; unitPrice: string; discount: string }, currency: string): Decimal {
  return roundMoney(new Decimal(line.quantity).times(line.unitPrice).minus(line.discount), currency);
}

/**
 * spec: Online sales order, totals are calculated by the service from lines and shipping:
 * subtotal = Σ rounded line totals, taxTotal = Σ line tax, total = subtotal + taxTotal + shippingTotal.
 */
export function orderTotals(lines: Array<{ lineTotal: string; tax: string }>, shipping: { amount: string } | null, currency: string): OrderTotals {
  const subtotal = lines.reduce((s, l) => s.plus(l.lineTotal), new Decimal(0));
  const taxTotal = lines.reduce((s, l) => s.plus(l.tax), new Decimal(0));
  const shippingTotal = new Decimal(shipping?.amount ?? '0');
  const money = (d: Decimal) => formatMoney(d, currency);
  return { subtotal: money(subtotal), taxTotal: money(taxTotal), shippingTotal: money(shippingTotal), total: money(subtotal.plus(taxTotal).plus(shippingTotal)) };
}

/**
 * Canonical form of a checked order: money to the currency's minor units ("4.5" → "4.50"), quantities
 * without trailing zeros, absent optionals as null, placedAt as `toISOString()`. Same content ⇒ same
 * hash, whatever the key order, decimal spelling or location reference (id or externalId).
 */
export function normalizeOrder(input: SalesOrderInput, locationId: string): NormalizedOrder {
  const cur = input.currency;
  const money = (v: string) => formatMoney(v, cur);
  const content: OrderContent = {
    locationId,
    customer: input.customer ? { externalId: input.customer.externalId ?? null, name: input.customer.name ?? null, email: input.customer.email ?? null } : null,
    placedAt: input.placedAt === undefined ? null : new Date(input.placedAt).toISOString(),
    lines: input.lines.map((l) => ({
      itemExternalId: l.itemExternalId ?? null,
      itemSku: l.itemSku ?? null,
      itemBarcode: l.itemBarcode ?? null,
      name: l.name ?? null,
      quantity: formatQuantity(l.quantity),
      unitPrice: money(l.unitPrice),
      discount: money(l.discount ?? '0'),
      tax: money(l.tax ?? '0'),
    })),
    shipping: input.shipping
      ? {
          method: input.shipping.method,
          amount: money(input.shipping.amount),
          address: input.shipping.address
            ? {
                line1: input.shipping.address.line1,
                line2: input.shipping.address.line2 ?? null,
                city: input.shipping.address.city,
                region: input.shipping.address.region ?? null,
                postalCode: input.shipping.address.postalCode ?? null,
                country: input.shipping.address.country,
              }
            : null,
        }
      : null,
    paymentStatus: input.paymentStatus ?? null,
    status: input.status,
    cancelReason: input.cancelReason ?? null,
    currency: cur,
  };
  const lines: OrderLine[] = content.lines.map((l) => ({ ...l, itemId: null, lineTotal: money(orderLineTotal(l, cur).toFixed()) }));
  const core = { locationId, customer: content.customer, placedAt: content.placedAt, lines: content.lines, shipping: content.shipping, currency: cur };
  return { content, lines, ...orderTotals(lines, content.shipping, cur), contentHash: contentHash(content as unknown as Record<string, unknown>), coreHash: contentHash(core) };
}

/** What is stored of an order, as the PUT decision needs it. */
export interface StoredOrderState {
  status: OrderStatus;
  contentHash: string;
  coreHash: string;
  paymentStatus: string | null;
}

export type PutDecision =
  /** a new (source, externalId) */
  | { kind: 'create' }
  /** the source sent nothing new: no write, no event */
  | { kind: 'unchanged' }
  /** an order still open (or reserved) takes the content as sent; `cancels` when it is sent cancelled */
  | { kind: 'replace'; cancels: boolean }
  /**
   * a final order re-sent with the same lines, shipping and customer: only paymentStatus may still move
   * (a refund after cancelling); `touch` when nothing on the order changes, just what the source last sent
   */
  | { kind: 'payment'; touch: boolean }
  | { kind: 'conflict'; detail: string };

/**
 * spec: Ingested record states (created / updated / unchanged) and Sales order states (re-sent with
 * status cancelled → cancelled, final). A final order is not reopened nor changed by a re-send.
 */
export function decidePut(existing: StoredOrderState | null, sent: Pick<NormalizedOrder, 'contentHash' | 'coreHash'> & { status: 'open' | 'cancelled'; paymentStatus: string | null }): PutDecision {
  if (!existing) return { kind: 'create' };
  if (existing.contentHash === sent.contentHash) return { kind: 'unchanged' };
  // a reserved order holds stock for its lines at its location: those can no longer change (cancelling releases the stock)
  if (existing.status === 'reserved' && existing.coreHash !== sent.coreHash && sent.status !== 'cancelled') {
    return { kind: 'conflict', detail: 'The order is reserved: stock is held for its lines at its location, so its lines, shipping, customer, location and currency can no longer change. Cancel it (the stock is released) and send a new order instead.' };
  }
  if (!FINAL_STATUSES.has(existing.status)) return { kind: 'replace', cancels: sent.status === 'cancelled' };
  // the source's `open` means "not cancelled": it may re-send a shipped order, never reopen a cancelled one
  if (existing.status === 'cancelled' && sent.status === 'open') {
    return { kind: 'conflict', detail: 'The order is cancelled, a final state: it cannot be reopened. Send a new order (new externalId) instead.' };
  }
  if (existing.status === 'shipped' && sent.status === 'cancelled') {
    return { kind: 'conflict', detail: 'The order is shipped, a final state: it cannot be cancelled any more.' };
  }
  if (existing.coreHash !== sent.coreHash) {
    return { kind: 'conflict', detail: `The order is ${existing.status}, a final state: its lines, shipping, customer, location and currency can no longer change. Send a new order (new externalId) instead.` };
  }
  return { kind: 'payment', touch: existing.paymentStatus === sent.paymentStatus };
}

/** Stock inventory holds or deducted for an order: an item and its quantity in base units. */
export interface OrderStockLine {
  itemId: string;
  quantity: string;
}

export interface OrderShipment {
  carrier: string | null;
  trackingNumber: string | null;
  shippedAt: string;
  lines: OrderStockLine[];
}

/** Why `:reserve` refuses an order, or null (supplement: Sales order `open` → `reserved`). */
export function reserveRefusal(status: OrderStatus): string | null {
  if (status === 'reserved') return 'The order is already reserved.';
  if (status === 'shipped') return 'The order is shipped, a final state: nothing is left to reserve.';
  if (status === 'cancelled') return 'The order is cancelled, a final state: it cannot be reserved.';
  return null;
}

/** Why `:ship` refuses an order, or null (supplement: Sales order `open` or `reserved` → `shipped`). */
export function shipRefusal(status: OrderStatus): string | null {
  if (status === 'shipped') return 'The order is already shipped.';
  if (status === 'cancelled') return 'The order is cancelled, a final state: it cannot be shipped.';
  return null;
}

/**
 * The stock lines of an order for inventory: each line's item and quantity (a line without an item
 * cannot move stock: 422 naming it), with the order-line index of each, to map inventory's paths back.
 */
export function orderStockLines(lines: OrderLine[]): { lines: OrderStockLine[]; orderIndex: number[] } | { errors: Array<{ path: string; message: string }> } {
  const errors = lines.flatMap((l, i) =>
    l.itemId ? [] : [{ path: `lines[${i}].itemId`, message: 'This line matches no item; map its POS item first (POST /sales/unmapped-items:map), then reserve or ship.' }],
  );
  if (errors.length > 0) return { errors };
  return { lines: lines.map((l) => ({ itemId: l.itemId!, quantity: l.quantity })), orderIndex: lines.map((_, i) => i) };
}

/** Why `:cancel` refuses an order, or null (spec: Sales order `open` or `reserved` → `cancelled`). */
export function cancelRefusal(status: OrderStatus): string | null {
  if (status === 'cancelled') return 'The order is already cancelled.';
  if (status === 'shipped') return 'The order is shipped, a final state: it cannot be cancelled.';
  return null;
}
