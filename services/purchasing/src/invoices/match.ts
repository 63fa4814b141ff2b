import Decimal from 'decimal.js';
import type { MatchDifference, SupplierInvoiceLine } from '@bop/contracts';
import { fmtAmount, fmtQuantity } from '@bop/shared';

/**
 * Three-way match of a supplier invoice (pure, no I/O): each invoice line against its purchase-order
 * line (ordered, received, billed before) within the company's tolerances, plus the invoice-level
 * checks: no matching order, order lines received but not billed, and the invoice's own tax and
 * total arithmetic. The rules are those of contracts/src/purchasing/invoices.ts.
 *
 * Formats (the kit's money.ts): quantities and prices per pack without trailing zeros ("12.5", "3",
 * "10.2", "18.95"), amounts half-up to the cent with two decimals ("120.50"); never a negative zero.
 */

/** Sums and products of packs × prices stay exact well beyond numeric(…,4); rounded once when shown. */
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
const ZERO = new D(0);

const round2 = (v: Decimal.Value) => new D(v).toDecimalPlaces(2, D.ROUND_HALF_UP);
/** Prices per pack print like quantities: no trailing zeros ("10.2"). */
const fmtPrice = fmtQuantity;

export interface Tolerances {
  quantityAbsolute: string | null;
  quantityPercent: string | null;
  priceAbsolute: string | null;
  pricePercent: string | null;
}

export interface OrderLineForMatch {
  id: string;
  supplierItemCode: string;
  itemId: string;
  quantity: string;
  unitPrice: string;
  receivedQuantity: string;
  previouslyInvoicedQuantity: string;
}

export interface InvoiceLineForMatch {
  supplierItemCode?: string;
  itemId?: string;
  description?: string | null;
  quantity: string;
  unitPrice: string;
  taxAmount?: string;
}

export interface MatchInput {
  /** null: no matching order; `noOrderReason` says why (e.g. "No purchase order named.", "Order PO-000042 belongs to another supplier.") */
  order: { lines: OrderLineForMatch[] } | null;
  noOrderReason?: string;
  lines: InvoiceLineForMatch[];
  taxTotal?: string;
  total: string;
  tolerances: Tolerances;
}

export interface MatchOutcome {
  status: 'matched' | 'mismatched';
  lines: SupplierInvoiceLine[];
  subtotal: string;
  taxTotal: string;
  differences: MatchDifference[];
}

/**
 * Whether |difference| is within every limit that is set: ≤ `absolute`, and ≤ `percent`/100 × |expected|.
 * With neither limit set only an exact match (0) is tolerated. A difference equal to a limit is within it.
 */
export function withinTolerance(difference: Decimal, expected: Decimal, absolute: string | null, percent: string | null): boolean {
  const size = new D(difference).abs();
  if (absolute === null && percent === null) return size.isZero();
  if (absolute !== null && size.greaterThan(absolute)) return false;
  if (percent !== null && size.greaterThan(percentLimit(expected, percent))) return false;
  return true;
}

const percentLimit = (expected: Decimal.Value, percent: string) => new D(percent).dividedBy(100).times(new D(expected).abs());

const packs = (q: Decimal.Value) => `${fmtQuantity(q)} ${new D(q).equals(1) ? 'pack' : 'packs'}`;

/** "no tolerance", "tolerance 1 pack", "tolerance 2% = 0.2", "tolerance 1 pack and 10% = 1.2 packs". */
function describeTolerance(expected: Decimal, absolute: string | null, percent: string | null, show: (v: Decimal.Value) => string): string {
  if (absolute === null && percent === null) return 'no tolerance';
  const parts: string[] = [];
  if (absolute !== null) parts.push(show(absolute));
  if (percent !== null) parts.push(`${fmtQuantity(percent)}% = ${show(percentLimit(expected, percent))}`);
  return `tolerance ${parts.join(' and ')}`;
}

const overUnder = (difference: Decimal, show: (v: Decimal.Value) => string) => `${show(difference.abs())} ${difference.isNegative() ? 'under' : 'over'}`;

const difference = (kind: MatchDifference['kind'], expected: string | null, invoiced: string | null, diff: string | null, tolerated: boolean, message: string): MatchDifference => ({
  kind,
  expected,
  invoiced,
  difference: diff,
  tolerated,
  message,
});

/** What an invoice line names, for messages: "supplier code SYS-1 / item itm_1". */
function describeNamed(line: InvoiceLineForMatch): string {
  const names: string[] = [];
  if (line.supplierItemCode !== undefined) names.push(`supplier code ${line.supplierItemCode}`);
  if (line.itemId !== undefined) names.push(`item ${line.itemId}`);
  return names.length ? names.join(' / ') : 'a line naming neither a supplier code nor an item';
}

type Found = { line: OrderLineForMatch } | { line: null; why: string };

/** By supplier code when given, else by item; both given must name the same order line. */
function findOrderLine(line: InvoiceLineForMatch, orderLines: OrderLineForMatch[]): Found {
  // supplier codes compare case-insensitively, as in catalogs, orders and receipts
  const code = line.supplierItemCode?.toLowerCase();
  const byCode = code !== undefined ? orderLines.find((l) => l.supplierItemCode.toLowerCase() === code) : undefined;
  const byItem = line.itemId !== undefined ? orderLines.find((l) => l.itemId === line.itemId) : undefined;
  if (line.supplierItemCode === undefined && line.itemId === undefined) return { line: null, why: 'The line names neither a supplier code nor an item.' };
  if (line.supplierItemCode !== undefined && line.itemId !== undefined) {
    if (byCode && byItem && byCode.id === byItem.id) return { line: byCode };
    if (byCode && byItem) return { line: null, why: `Supplier code ${line.supplierItemCode} and item ${line.itemId} are different lines of the order.` };
    if (byCode) return { line: null, why: `Supplier code ${line.supplierItemCode} is on the order but item ${line.itemId} is not.` };
    if (byItem) return { line: null, why: `Item ${line.itemId} is on the order but supplier code ${line.supplierItemCode} is not.` };
    return { line: null, why: `Neither supplier code ${line.supplierItemCode} nor item ${line.itemId} is on the order.` };
  }
  const found = byCode ?? byItem;
  return found ? { line: found } : { line: null, why: `${capitalize(describeNamed(line))} is not on the order.` };
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Packs received and not yet billed by another matched or approved invoice (never below 0). */
const openQuantity = (l: OrderLineForMatch) => D.max(ZERO, new D(l.receivedQuantity).minus(l.previouslyInvoicedQuantity));

/** spec: three-way match (contracts/src/purchasing/invoices.ts), per line then invoice-level. */
export function matchInvoice(input: MatchInput): MatchOutcome {
  const t = input.tolerances;
  const orderLines = input.order?.lines ?? [];
  /** packs billed by earlier lines of this invoice, per order line */
  const billedHere = new Map<string, Decimal>();

  const found: Found[] = input.lines.map((inv) => (input.order ? findOrderLine(inv, orderLines) : { line: null, why: 'There is no matching order.' }));
  /** the last invoice line billing each order line: only there is billing less than received a shortage */
  const lastLine = new Map<string, number>();
  found.forEach((f, i) => {
    if (f.line) lastLine.set(f.line.id, i);
  });

  const lines: SupplierInvoiceLine[] = input.lines.map((inv, i) => {
    const quantity = new D(inv.quantity);
    const unitPrice = new D(inv.unitPrice);
    const amount = round2(quantity.times(unitPrice));
    const differences: MatchDifference[] = [];
    const match = found[i];
    const ol = match.line;

    if (!ol) {
      const why = 'why' in match ? match.why : '';
      differences.push(
        difference('not_ordered', null, fmtQuantity(quantity), null, false, `Billed ${packs(quantity)} at ${fmtPrice(unitPrice)} (${fmtAmount(amount)}) for ${describeNamed(inv)}, not ordered. ${why}`),
      );
    } else {
      // spec: quantity — what arrived and was not billed yet, minus what earlier lines of this invoice took of it
      const received = new D(ol.receivedQuantity);
      const before = new D(ol.previouslyInvoicedQuantity);
      const open = openQuantity(ol);
      const earlier = billedHere.get(ol.id) ?? ZERO;
      const remaining = D.max(ZERO, open.minus(earlier));
      const isLast = lastLine.get(ol.id) === i;
      // a line followed by more lines of the same order line is short of nothing yet: only over-billing counts there
      const expected = isLast ? remaining : D.min(quantity, remaining);
      const billedInAll = earlier.plus(quantity);
      billedHere.set(ol.id, billedInAll);
      const qDiff = quantity.minus(expected);
      if (!qDiff.isZero()) {
        // tolerance applies to the order line as a whole: all this invoice billed of it so far against what was open
        const overall = billedInAll.minus(open);
        const tolerated = withinTolerance(overall, open, t.quantityAbsolute, t.quantityPercent);
        const billedBefore = [
          ...(before.isZero() ? [] : [`${fmtQuantity(before)} billed by other invoices`]),
          ...(earlier.isZero() ? [] : [`${fmtQuantity(earlier)} billed by earlier lines of this invoice`]),
        ];
        const context = billedBefore.length
          ? `${fmtQuantity(received)} received, ${billedBefore.join(', ')}: ${fmtQuantity(remaining)} left to bill`
          : `${fmtQuantity(expected)} received and not yet billed`;
        const inAll = earlier.isZero() ? '' : `; ${fmtQuantity(billedInAll)} billed in all against ${fmtQuantity(open)}`;
        differences.push(
          difference(
            'quantity',
            fmtQuantity(expected),
            fmtQuantity(quantity),
            fmtQuantity(qDiff),
            tolerated,
            `Billed ${packs(quantity)} of ${ol.supplierItemCode}; ${context} (${overUnder(qDiff, fmtQuantity)}${inAll}; ${describeTolerance(open, t.quantityAbsolute, t.quantityPercent, packs)}).`,
          ),
        );
      }
      // spec: price — per pack, against the order line's
      const orderPrice = new D(ol.unitPrice);
      const pDiff = unitPrice.minus(orderPrice);
      if (!pDiff.isZero()) {
        const tolerated = withinTolerance(pDiff, orderPrice, t.priceAbsolute, t.pricePercent);
        differences.push(
          difference(
            'price',
            fmtPrice(orderPrice),
            fmtPrice(unitPrice),
            fmtPrice(pDiff),
            tolerated,
            `Billed ${fmtPrice(unitPrice)} per pack of ${ol.supplierItemCode}; ordered at ${fmtPrice(orderPrice)} (${overUnder(pDiff, fmtPrice)}; ${describeTolerance(orderPrice, t.priceAbsolute, t.pricePercent, fmtPrice)}).`,
          ),
        );
      }
    }

    return {
      supplierItemCode: inv.supplierItemCode ?? ol?.supplierItemCode ?? null,
      itemId: inv.itemId ?? ol?.itemId ?? null,
      description: inv.description ?? null,
      quantity: fmtQuantity(quantity),
      unitPrice: fmtPrice(unitPrice),
      amount: fmtAmount(amount),
      taxAmount: fmtAmount(inv.taxAmount ?? 0),
      purchaseOrderLineId: ol?.id ?? null,
      orderedQuantity: ol ? fmtQuantity(ol.quantity) : null,
      receivedQuantity: ol ? fmtQuantity(ol.receivedQuantity) : null,
      previouslyInvoicedQuantity: ol ? fmtQuantity(ol.previouslyInvoicedQuantity) : null,
      orderUnitPrice: ol ? fmtPrice(ol.unitPrice) : null,
      result: differences.some((d) => !d.tolerated) ? 'mismatched' : 'matched',
      differences,
    };
  });

  const differences: MatchDifference[] = [];
  if (!input.order) differences.push(difference('no_matching_order', null, null, null, false, input.noOrderReason ?? 'No matching purchase order.'));

  // spec: missing_line — received and not billed before, yet absent from this invoice
  for (const ol of orderLines) {
    const open = openQuantity(ol);
    if (!open.greaterThan(0) || billedHere.has(ol.id)) continue;
    const tolerated = withinTolerance(open.negated(), open, t.quantityAbsolute, t.quantityPercent);
    differences.push(
      difference(
        'missing_line',
        fmtQuantity(open),
        null,
        null,
        tolerated,
        `Order line ${ol.supplierItemCode} (item ${ol.itemId}): ${packs(open)} received and not yet billed, not on this invoice (${describeTolerance(open, t.quantityAbsolute, t.quantityPercent, packs)}).`,
      ),
    );
  }

  const subtotal = lines.reduce((s, l) => s.plus(l.amount), ZERO);
  const lineTax = lines.reduce((s, l) => s.plus(l.taxAmount), ZERO);
  // spec: the invoice's own arithmetic, to the cent, never tolerated
  let taxTotal = lineTax;
  if (input.taxTotal !== undefined) {
    taxTotal = round2(input.taxTotal);
    const diff = taxTotal.minus(lineTax);
    if (!diff.isZero()) {
      differences.push(
        difference('tax', fmtAmount(lineTax), fmtAmount(taxTotal), fmtAmount(diff), false, `Tax total ${fmtAmount(taxTotal)} printed; the lines' tax adds up to ${fmtAmount(lineTax)} (${overUnder(diff, fmtAmount)}).`),
      );
    }
  }
  const expectedTotal = subtotal.plus(taxTotal);
  const total = round2(input.total);
  const totalDiff = total.minus(expectedTotal);
  if (!totalDiff.isZero()) {
    differences.push(
      difference(
        'total',
        fmtAmount(expectedTotal),
        fmtAmount(total),
        fmtAmount(totalDiff),
        false,
        `Total ${fmtAmount(total)} printed; lines ${fmtAmount(subtotal)} + tax ${fmtAmount(taxTotal)} = ${fmtAmount(expectedTotal)} (${overUnder(totalDiff, fmtAmount)}).`,
      ),
    );
  }

  const mismatched = differences.some((d) => !d.tolerated) || lines.some((l) => l.result === 'mismatched');
  return { status: mismatched ? 'mismatched' : 'matched', lines, subtotal: fmtAmount(subtotal), taxTotal: fmtAmount(taxTotal), differences };
}
