/**
 * Three-way match of supplier invoices (pure): quantity and price within tolerances, lines not
 * ordered, order lines not billed, no matching order, and the invoice's own tax and total arithmetic.
 */
import Decimal from 'decimal.js';
import { matchInvoice, withinTolerance, type InvoiceLineForMatch, type MatchInput, type OrderLineForMatch, type Tolerances } from '../src/invoices/match';

const exact: Tolerances = { quantityAbsolute: null, quantityPercent: null, priceAbsolute: null, pricePercent: null };

const orderLine = (over: Partial<OrderLineForMatch> = {}): OrderLineForMatch => ({
  id: 'pol_1',
  supplierItemCode: 'SYS-1',
  itemId: 'itm_1',
  quantity: '10',
  unitPrice: '10',
  receivedQuantity: '10',
  previouslyInvoicedQuantity: '0',
  ...over,
});
const second = orderLine({ id: 'pol_2', supplierItemCode: 'SYS-2', itemId: 'itm_2', quantity: '4', unitPrice: '2.5', receivedQuantity: '4' });

/** An invoice of `lines` whose total is right unless given. */
function invoice(lines: InvoiceLineForMatch[], over: Partial<MatchInput> = {}): MatchInput {
  const subtotal = lines.reduce((s, l) => s.plus(new Decimal(l.quantity).times(l.unitPrice).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)), new Decimal(0));
  const tax = lines.reduce((s, l) => s.plus(l.taxAmount ?? 0), new Decimal(0));
  return { order: { lines: [orderLine()] }, lines, total: subtotal.plus(over.taxTotal ?? tax).toFixed(2), tolerances: exact, ...over };
}
const billed = (quantity: string, unitPrice = '10', over: Partial<InvoiceLineForMatch> = {}): InvoiceLineForMatch => ({ supplierItemCode: 'SYS-1', quantity, unitPrice, ...over });
const withTolerances = (t: Partial<Tolerances>) => ({ ...exact, ...t });

describe('withinTolerance', () => {
  const d = (v: string) => new Decimal(v);
  it('tolerates only 0 when no limit is set', () => {
    expect(withinTolerance(d('0'), d('10'), null, null)).toBe(true);
    expect(withinTolerance(d('0.0001'), d('10'), null, null)).toBe(false);
    expect(withinTolerance(d('-0.0001'), d('10'), null, null)).toBe(false);
  });

  it('holds an absolute limit inclusively, either way', () => {
    expect(withinTolerance(d('1'), d('10'), '1', null)).toBe(true);
    expect(withinTolerance(d('-1'), d('10'), '1', null)).toBe(true);
    expect(withinTolerance(d('1.000001'), d('10'), '1', null)).toBe(false);
    expect(withinTolerance(d('-1.000001'), d('10'), '1', null)).toBe(false);
    expect(withinTolerance(d('0'), d('10'), '0', null)).toBe(true);
    expect(withinTolerance(d('0.01'), d('10'), '0', null)).toBe(false);
  });

  it('holds a percent limit of |expected| inclusively', () => {
    expect(withinTolerance(d('0.2'), d('10'), null, '2')).toBe(true);
    expect(withinTolerance(d('0.2001'), d('10'), null, '2')).toBe(false);
    expect(withinTolerance(d('-0.2'), d('10'), null, '2')).toBe(true);
    expect(withinTolerance(d('0.2'), d('-10'), null, '2')).toBe(true);
    expect(withinTolerance(d('0.0001'), d('0'), null, '50')).toBe(false);
    expect(withinTolerance(d('10'), d('10'), null, '100')).toBe(true);
  });

  it('needs every limit set when both are', () => {
    expect(withinTolerance(d('1'), d('10'), '2', '10')).toBe(true);
    expect(withinTolerance(d('1.5'), d('10'), '2', '10')).toBe(false); // over the 10% (1)
    expect(withinTolerance(d('1'), d('10'), '0.5', '10')).toBe(false); // over the absolute 0.5
    expect(withinTolerance(d('0.5'), d('10'), '0.5', '10')).toBe(true);
  });
});

describe('matchInvoice: a clean invoice', () => {
  it('matches and fills the order line', () => {
    const out = matchInvoice(invoice([billed('10.000', '10.00', { description: 'Tomatoes 6x1kg', taxAmount: '8' })]));
    expect(out).toEqual({
      status: 'matched',
      subtotal: '100.00',
      taxTotal: '8.00',
      differences: [],
      lines: [
        {
          supplierItemCode: 'SYS-1',
          itemId: 'itm_1',
          description: 'Tomatoes 6x1kg',
          quantity: '10',
          unitPrice: '10',
          amount: '100.00',
          taxAmount: '8.00',
          purchaseOrderLineId: 'pol_1',
          orderedQuantity: '10',
          receivedQuantity: '10',
          previouslyInvoicedQuantity: '0',
          orderUnitPrice: '10',
          result: 'matched',
          differences: [],
        },
      ],
    });
  });

  it('matches by item when no supplier code is given, and by code alone, filling in the other', () => {
    const order = { lines: [orderLine(), second] };
    const byItem = matchInvoice(invoice([{ itemId: 'itm_2', quantity: '4', unitPrice: '2.5' }, billed('10')], { order }));
    expect(byItem.status).toBe('matched');
    expect(byItem.lines.map((l) => [l.purchaseOrderLineId, l.supplierItemCode, l.itemId])).toEqual([
      ['pol_2', 'SYS-2', 'itm_2'],
      ['pol_1', 'SYS-1', 'itm_1'],
    ]);
    const both = matchInvoice(invoice([billed('10', '10', { itemId: 'itm_1' }), billed('4', '2.5', { supplierItemCode: 'SYS-2', itemId: 'itm_2' })], { order }));
    expect(both.status).toBe('matched');
    expect(both.lines.map((l) => l.purchaseOrderLineId)).toEqual(['pol_1', 'pol_2']);
  });
});

describe('matchInvoice: quantity', () => {
  it('reports billing more than received, untolerated without limits', () => {
    const out = matchInvoice(invoice([billed('12')]));
    expect(out.status).toBe('mismatched');
    expect(out.lines[0].result).toBe('mismatched');
    expect(out.lines[0].differences).toEqual([
      { kind: 'quantity', expected: '10', invoiced: '12', difference: '2', tolerated: false, message: 'Billed 12 packs of SYS-1; 10 received and not yet billed (2 over; no tolerance).' },
    ]);
    expect(out.differences).toEqual([]);
  });

  it('reports billing less than received (a short bill is a difference too)', () => {
    const out = matchInvoice(invoice([billed('7.5')]));
    expect(out.lines[0].differences).toEqual([
      { kind: 'quantity', expected: '10', invoiced: '7.5', difference: '-2.5', tolerated: false, message: 'Billed 7.5 packs of SYS-1; 10 received and not yet billed (2.5 under; no tolerance).' },
    ]);
    expect(out.status).toBe('mismatched');
  });

  it('tolerates up to the absolute limit, exactly at it, not beyond', () => {
    const t = withTolerances({ quantityAbsolute: '1' });
    const at = matchInvoice(invoice([billed('11')], { tolerances: t }));
    expect(at.status).toBe('matched');
    expect(at.lines[0].result).toBe('matched');
    expect(at.lines[0].differences).toEqual([
      { kind: 'quantity', expected: '10', invoiced: '11', difference: '1', tolerated: true, message: 'Billed 11 packs of SYS-1; 10 received and not yet billed (1 over; tolerance 1 pack).' },
    ]);
    expect(matchInvoice(invoice([billed('9')], { tolerances: t })).status).toBe('matched');
    const over = matchInvoice(invoice([billed('11.001')], { tolerances: t }));
    expect(over.status).toBe('mismatched');
    expect(over.lines[0].differences[0]).toMatchObject({ difference: '1.001', tolerated: false });
    expect(matchInvoice(invoice([billed('8.999')], { tolerances: t })).status).toBe('mismatched');
  });

  it('tolerates up to the percent of what was expected, exactly at it, not beyond', () => {
    const t = withTolerances({ quantityPercent: '10' });
    const at = matchInvoice(invoice([billed('11')], { tolerances: t }));
    expect(at.status).toBe('matched');
    expect(at.lines[0].differences[0].message).toBe('Billed 11 packs of SYS-1; 10 received and not yet billed (1 over; tolerance 10% = 1 pack).');
    expect(matchInvoice(invoice([billed('9')], { tolerances: t })).status).toBe('matched');
    expect(matchInvoice(invoice([billed('11.001')], { tolerances: t })).status).toBe('mismatched');
    expect(matchInvoice(invoice([billed('8.999')], { tolerances: t })).status).toBe('mismatched');
    // the percent is of the expected quantity: nothing received leaves no room
    const nothing = matchInvoice({ ...invoice([billed('1')], { tolerances: t }), order: { lines: [orderLine({ receivedQuantity: '0' })] } });
    expect(nothing.lines[0].differences[0]).toMatchObject({ expected: '0', invoiced: '1', difference: '1', tolerated: false });
  });

  it('needs both limits when both are set', () => {
    const t = withTolerances({ quantityAbsolute: '2', quantityPercent: '10' });
    const at = matchInvoice(invoice([billed('11')], { tolerances: t }));
    expect(at.status).toBe('matched');
    expect(at.lines[0].differences[0].message).toContain('(1 over; tolerance 2 packs and 10% = 1 pack)');
    expect(matchInvoice(invoice([billed('11.5')], { tolerances: t })).status).toBe('mismatched'); // within 2, over 10%
    const tight = withTolerances({ quantityAbsolute: '0.5', quantityPercent: '10' });
    expect(matchInvoice(invoice([billed('11')], { tolerances: tight })).status).toBe('mismatched'); // within 10%, over 0.5
    expect(matchInvoice(invoice([billed('10.5')], { tolerances: tight })).status).toBe('matched');
  });

  it('expects only what was received and not billed by other invoices', () => {
    const order = { lines: [orderLine({ receivedQuantity: '10', previouslyInvoicedQuantity: '4' })] };
    const rest = matchInvoice(invoice([billed('6')], { order }));
    expect(rest.status).toBe('matched');
    expect(rest.lines[0]).toMatchObject({ orderedQuantity: '10', receivedQuantity: '10', previouslyInvoicedQuantity: '4' });
    const twice = matchInvoice(invoice([billed('8')], { order }));
    expect(twice.lines[0].differences).toEqual([
      {
        kind: 'quantity',
        expected: '6',
        invoiced: '8',
        difference: '2',
        tolerated: false,
        message: 'Billed 8 packs of SYS-1; 10 received, 4 billed by other invoices: 6 left to bill (2 over; no tolerance).',
      },
    ]);
    // partly received: billed against what arrived, not what was ordered
    const partly = matchInvoice(invoice([billed('10')], { order: { lines: [orderLine({ receivedQuantity: '7' })] } }));
    expect(partly.lines[0].differences[0]).toMatchObject({ expected: '7', invoiced: '10', difference: '3' });
    // billed before beyond what arrived: nothing is left, never below zero
    const overBilled = matchInvoice(invoice([billed('1')], { order: { lines: [orderLine({ receivedQuantity: '5', previouslyInvoicedQuantity: '6' })] } }));
    expect(overBilled.lines[0].differences[0]).toMatchObject({ expected: '0', invoiced: '1', difference: '1', tolerated: false });
    expect(overBilled.differences).toEqual([]);
  });

  it('counts several lines of one order line together', () => {
    // split in two: each part matches, nothing is short
    const split = matchInvoice(invoice([billed('6'), billed('4')]));
    expect(split.status).toBe('matched');
    expect(split.lines.map((l) => l.purchaseOrderLineId)).toEqual(['pol_1', 'pol_1']);
    expect(split.differences).toEqual([]);

    // the same line billed twice: the second has nothing left to bill
    const twice = matchInvoice(invoice([billed('10'), billed('10')]));
    expect(twice.status).toBe('mismatched');
    expect(twice.lines[0].differences).toEqual([]);
    expect(twice.lines[1].differences).toEqual([
      {
        kind: 'quantity',
        expected: '0',
        invoiced: '10',
        difference: '10',
        tolerated: false,
        message: 'Billed 10 packs of SYS-1; 10 received, 10 billed by earlier lines of this invoice: 0 left to bill (10 over; 20 billed in all against 10; no tolerance).',
      },
    ]);

    // short in all: reported on the last line of it
    const short = matchInvoice(invoice([billed('3'), billed('4')]));
    expect(short.lines[0].differences).toEqual([]);
    expect(short.lines[1].differences).toEqual([expect.objectContaining({ kind: 'quantity', expected: '7', invoiced: '4', difference: '-3', tolerated: false })]);

    // the tolerance holds for the order line as a whole: 12 + 3 of 10 is 5 over
    const t = withTolerances({ quantityAbsolute: '3' });
    const over = matchInvoice(invoice([billed('12'), billed('3')], { tolerances: t }));
    expect(over.lines[0].differences).toEqual([expect.objectContaining({ expected: '10', difference: '2', tolerated: true })]);
    expect(over.lines[1].differences).toEqual([expect.objectContaining({ expected: '0', difference: '3', tolerated: false, message: expect.stringContaining('15 billed in all against 10') })]);
    expect(over.status).toBe('mismatched');
    // 6 + 5 of 10 is 10% over in all
    const pct = matchInvoice(invoice([billed('6'), billed('5')], { tolerances: withTolerances({ quantityPercent: '10' }) }));
    expect(pct.lines[1].differences).toEqual([expect.objectContaining({ expected: '4', invoiced: '5', difference: '1', tolerated: true })]);
    expect(pct.status).toBe('matched');
  });
});

describe('matchInvoice: price', () => {
  it('compares the price per pack with the order, within the percent limit exactly', () => {
    const t = withTolerances({ pricePercent: '2' });
    const at = matchInvoice(invoice([billed('10', '10.20')], { tolerances: t }));
    expect(at.status).toBe('matched');
    expect(at.lines[0].differences).toEqual([
      { kind: 'price', expected: '10', invoiced: '10.2', difference: '0.2', tolerated: true, message: 'Billed 10.2 per pack of SYS-1; ordered at 10 (0.2 over; tolerance 2% = 0.2).' },
    ]);
    const over = matchInvoice(invoice([billed('10', '10.2001')], { tolerances: t }));
    expect(over.status).toBe('mismatched');
    expect(over.lines[0].differences[0]).toMatchObject({ kind: 'price', difference: '0.2001', tolerated: false });
    expect(matchInvoice(invoice([billed('10', '9.80')], { tolerances: t })).status).toBe('matched');
    const under = matchInvoice(invoice([billed('10', '9.7999')], { tolerances: t }));
    expect(under.lines[0].differences[0]).toMatchObject({ difference: '-0.2001', tolerated: false, message: expect.stringContaining('(0.2001 under;') });
  });

  it('holds the absolute limit exactly', () => {
    const t = withTolerances({ priceAbsolute: '0.05' });
    expect(matchInvoice(invoice([billed('10', '10.05')], { tolerances: t })).status).toBe('matched');
    expect(matchInvoice(invoice([billed('10', '9.95')], { tolerances: t })).status).toBe('matched');
    expect(matchInvoice(invoice([billed('10', '10.0501')], { tolerances: t })).status).toBe('mismatched');
    const both = withTolerances({ priceAbsolute: '0.05', pricePercent: '0.1' }); // 0.1% of 10 = 0.01
    const out = matchInvoice(invoice([billed('10', '10.03')], { tolerances: both }));
    expect(out.lines[0].differences[0]).toMatchObject({ tolerated: false, message: expect.stringContaining('tolerance 0.05 and 0.1% = 0.01') });
    expect(matchInvoice(invoice([billed('10', '10.01')], { tolerances: both })).status).toBe('matched');
  });

  it('tolerates no price difference without limits, and reports quantity and price on one line', () => {
    const out = matchInvoice(invoice([billed('11', '10.0001')], { tolerances: withTolerances({ quantityAbsolute: '1' }) }));
    expect(out.lines[0].differences.map((d) => [d.kind, d.difference, d.tolerated])).toEqual([
      ['quantity', '1', true],
      ['price', '0.0001', false],
    ]);
    expect(out.lines[0].result).toBe('mismatched');
    expect(out.status).toBe('mismatched');
  });
});

describe('matchInvoice: lines not ordered and order lines not billed', () => {
  it('flags a line that is not on the order, never tolerated', () => {
    const generous = withTolerances({ quantityAbsolute: '1000', quantityPercent: '100', priceAbsolute: '1000', pricePercent: '100' });
    const out = matchInvoice(invoice([billed('10'), billed('2', '3.5', { supplierItemCode: 'SYS-9' })], { tolerances: generous }));
    expect(out.status).toBe('mismatched');
    expect(out.lines[1]).toMatchObject({ supplierItemCode: 'SYS-9', itemId: null, purchaseOrderLineId: null, orderedQuantity: null, receivedQuantity: null, previouslyInvoicedQuantity: null, orderUnitPrice: null, amount: '7.00', result: 'mismatched' });
    expect(out.lines[1].differences).toEqual([
      { kind: 'not_ordered', expected: null, invoiced: '2', difference: null, tolerated: false, message: 'Billed 2 packs at 3.5 (7.00) for supplier code SYS-9, not ordered. Supplier code SYS-9 is not on the order.' },
    ]);
    expect(out.lines[0].result).toBe('matched');
  });

  it('flags a supplier code and an item that do not name the same order line', () => {
    const order = { lines: [orderLine(), second] };
    const cases: [InvoiceLineForMatch, string][] = [
      [billed('4', '2.5', { itemId: 'itm_2' }), 'Supplier code SYS-1 and item itm_2 are different lines of the order.'],
      [billed('4', '2.5', { itemId: 'itm_9' }), 'Supplier code SYS-1 is on the order but item itm_9 is not.'],
      [billed('4', '2.5', { supplierItemCode: 'SYS-9', itemId: 'itm_2' }), 'Item itm_2 is on the order but supplier code SYS-9 is not.'],
      [billed('4', '2.5', { supplierItemCode: 'SYS-9', itemId: 'itm_9' }), 'Neither supplier code SYS-9 nor item itm_9 is on the order.'],
      [{ itemId: 'itm_9', quantity: '4', unitPrice: '2.5' }, 'Item itm_9 is not on the order.'],
      [{ quantity: '4', unitPrice: '2.5' }, 'The line names neither a supplier code nor an item.'],
    ];
    for (const [line, why] of cases) {
      const out = matchInvoice(invoice([line], { order }));
      expect(out.lines[0]).toMatchObject({ purchaseOrderLineId: null, result: 'mismatched' });
      expect(out.lines[0].differences).toEqual([expect.objectContaining({ kind: 'not_ordered', tolerated: false, message: expect.stringContaining(why) })]);
    }
  });

  it('flags order lines received and not yet billed that the invoice leaves out', () => {
    const order = {
      lines: [
        orderLine(),
        second,
        orderLine({ id: 'pol_3', supplierItemCode: 'SYS-3', itemId: 'itm_3', receivedQuantity: '0' }), // nothing arrived
        orderLine({ id: 'pol_4', supplierItemCode: 'SYS-4', itemId: 'itm_4', receivedQuantity: '5', previouslyInvoicedQuantity: '5' }), // billed before
        orderLine({ id: 'pol_5', supplierItemCode: 'SYS-5', itemId: 'itm_5', receivedQuantity: '5', previouslyInvoicedQuantity: '2' }),
      ],
    };
    const out = matchInvoice(invoice([billed('10')], { order }));
    expect(out.status).toBe('mismatched');
    expect(out.lines[0].result).toBe('matched');
    expect(out.differences).toEqual([
      { kind: 'missing_line', expected: '4', invoiced: null, difference: null, tolerated: false, message: 'Order line SYS-2 (item itm_2): 4 packs received and not yet billed, not on this invoice (no tolerance).' },
      { kind: 'missing_line', expected: '3', invoiced: null, difference: null, tolerated: false, message: 'Order line SYS-5 (item itm_5): 3 packs received and not yet billed, not on this invoice (no tolerance).' },
    ]);
  });

  it('tolerates a missing line within the quantity tolerance of it', () => {
    const order = { lines: [orderLine(), orderLine({ id: 'pol_2', supplierItemCode: 'SYS-2', itemId: 'itm_2', receivedQuantity: '1' })] };
    const abs = matchInvoice(invoice([billed('10')], { order, tolerances: withTolerances({ quantityAbsolute: '1' }) }));
    expect(abs.differences).toEqual([expect.objectContaining({ kind: 'missing_line', expected: '1', tolerated: true, message: expect.stringContaining('(tolerance 1 pack)') })]);
    expect(abs.status).toBe('matched');
    expect(matchInvoice(invoice([billed('10')], { order, tolerances: withTolerances({ quantityAbsolute: '0.999' }) })).status).toBe('mismatched');
    expect(matchInvoice(invoice([billed('10')], { order, tolerances: withTolerances({ quantityPercent: '100' }) })).status).toBe('matched');
    expect(matchInvoice(invoice([billed('10')], { order, tolerances: withTolerances({ quantityPercent: '99.9999' }) })).status).toBe('mismatched');
  });

  it('does not count a line naming it wrongly as billing it', () => {
    const out = matchInvoice(invoice([billed('10', '10', { itemId: 'itm_9' })]));
    expect(out.lines[0].differences[0].kind).toBe('not_ordered');
    expect(out.differences).toEqual([expect.objectContaining({ kind: 'missing_line', expected: '10' })]);
  });
});

describe('matchInvoice: no matching order', () => {
  it('flags every line not ordered and the invoice without an order', () => {
    const out = matchInvoice(invoice([billed('10', '10', { itemId: 'itm_1' }), { itemId: 'itm_2', quantity: '1', unitPrice: '1' }], { order: null, noOrderReason: 'Order PO-000042 belongs to another supplier.' }));
    expect(out.status).toBe('mismatched');
    expect(out.lines.map((l) => [l.result, l.purchaseOrderLineId, l.supplierItemCode, l.itemId, l.differences.map((d) => d.kind)])).toEqual([
      ['mismatched', null, 'SYS-1', 'itm_1', ['not_ordered']],
      ['mismatched', null, null, 'itm_2', ['not_ordered']],
    ]);
    expect(out.lines[0].differences[0].message).toBe('Billed 10 packs at 10 (100.00) for supplier code SYS-1 / item itm_1, not ordered. There is no matching order.');
    expect(out.differences).toEqual([{ kind: 'no_matching_order', expected: null, invoiced: null, difference: null, tolerated: false, message: 'Order PO-000042 belongs to another supplier.' }]);
    expect(out.subtotal).toBe('101.00');
  });

  it('says so without a reason given', () => {
    const out = matchInvoice(invoice([billed('1')], { order: null }));
    expect(out.differences).toEqual([expect.objectContaining({ kind: 'no_matching_order', message: 'No matching purchase order.' })]);
  });
});

describe('matchInvoice: tax and total', () => {
  const order = { lines: [orderLine(), second] };
  const lines = [billed('10', '10', { taxAmount: '8.25' }), billed('4', '2.5', { supplierItemCode: 'SYS-2', taxAmount: '0.8' })];

  it('sums line tax when no tax total is printed, and checks the total with it', () => {
    const out = matchInvoice({ order, lines, total: '119.05', tolerances: exact });
    expect(out).toMatchObject({ status: 'matched', subtotal: '110.00', taxTotal: '9.05', differences: [] });
    expect(out.lines.map((l) => l.taxAmount)).toEqual(['8.25', '0.80']);
  });

  it('checks the printed tax total against the lines, to the cent, never tolerated', () => {
    const generous = withTolerances({ quantityAbsolute: '1000', quantityPercent: '100', priceAbsolute: '1000', pricePercent: '100' });
    expect(matchInvoice({ order, lines, taxTotal: '9.05', total: '119.05', tolerances: generous }).status).toBe('matched');
    const out = matchInvoice({ order, lines, taxTotal: '9.06', total: '119.06', tolerances: generous });
    expect(out.status).toBe('mismatched');
    expect(out.taxTotal).toBe('9.06');
    expect(out.differences).toEqual([
      { kind: 'tax', expected: '9.05', invoiced: '9.06', difference: '0.01', tolerated: false, message: "Tax total 9.06 printed; the lines' tax adds up to 9.05 (0.01 over)." },
    ]);
    expect(out.lines.every((l) => l.result === 'matched')).toBe(true);
  });

  it('checks the printed total against lines + tax, to the cent, never tolerated', () => {
    const generous = withTolerances({ quantityAbsolute: '1000', quantityPercent: '100', priceAbsolute: '1000', pricePercent: '100' });
    const out = matchInvoice({ order, lines, taxTotal: '9.05', total: '119.04', tolerances: generous });
    expect(out.status).toBe('mismatched');
    expect(out.differences).toEqual([
      { kind: 'total', expected: '119.05', invoiced: '119.04', difference: '-0.01', tolerated: false, message: 'Total 119.04 printed; lines 110.00 + tax 9.05 = 119.05 (0.01 under).' },
    ]);
    // the total is checked against the printed tax: a wrong tax total and a total consistent with the lines are two differences
    const both = matchInvoice({ order, lines, taxTotal: '10', total: '119.05', tolerances: exact });
    expect(both.differences.map((d) => [d.kind, d.expected, d.invoiced, d.difference])).toEqual([
      ['tax', '9.05', '10.00', '0.95'],
      ['total', '120.00', '119.05', '-0.95'],
    ]);
  });

  it('lists invoice-level differences in order: no order, missing lines, tax, total', () => {
    const out = matchInvoice({ order: null, noOrderReason: 'No purchase order named.', lines, taxTotal: '1', total: '2', tolerances: exact });
    expect(out.differences.map((d) => d.kind)).toEqual(['no_matching_order', 'tax', 'total']);
  });
});

describe('matchInvoice: rounding and formats', () => {
  it('rounds each line amount half-up to the cent and sums the rounded amounts', () => {
    const order = { lines: [orderLine({ unitPrice: '0.005', receivedQuantity: '2' }), orderLine({ id: 'pol_2', supplierItemCode: 'SYS-2', itemId: 'itm_2', unitPrice: '3.3333', receivedQuantity: '3' })] };
    const out = matchInvoice({
      order,
      lines: [billed('1', '0.005'), billed('1', '0.005'), billed('3', '3.3333', { supplierItemCode: 'SYS-2' })],
      total: '10.02',
      tolerances: exact,
    });
    expect(out.lines.map((l) => l.amount)).toEqual(['0.01', '0.01', '10.00']);
    expect(out.subtotal).toBe('10.02');
    expect(out.status).toBe('matched');
    const exactCents = matchInvoice({ order: { lines: [orderLine({ unitPrice: '0.0125', receivedQuantity: '0.5' })] }, lines: [billed('0.5', '0.0125')], total: '0.01', tolerances: exact });
    expect(exactCents.lines[0].amount).toBe('0.01'); // 0.00625 → 0.01
    expect(exactCents.status).toBe('matched');
    const large = matchInvoice({ order: { lines: [orderLine({ unitPrice: '999999999999.9999', receivedQuantity: '9999999999.999' })] }, lines: [billed('9999999999.999', '999999999999.9999')], total: '9999999999998999000000.00', tolerances: exact });
    expect(large.lines[0].amount).toBe('9999999999998999000000.00'); // 9999999999998999000000.0000001: no float or 20-digit precision loss
  });

  it('prints quantities and prices without trailing zeros and amounts with two decimals', () => {
    const out = matchInvoice({
      order: { lines: [orderLine({ quantity: '12.500', unitPrice: '18.9000', receivedQuantity: '12.500', previouslyInvoicedQuantity: '0.000' })] },
      lines: [billed('12.500', '18.90', { taxAmount: '1.5' })],
      total: '237.75',
      tolerances: exact,
    });
    expect(out.lines[0]).toMatchObject({ quantity: '12.5', unitPrice: '18.9', amount: '236.25', taxAmount: '1.50', orderedQuantity: '12.5', receivedQuantity: '12.5', previouslyInvoicedQuantity: '0', orderUnitPrice: '18.9' });
    expect(out).toMatchObject({ status: 'matched', subtotal: '236.25', taxTotal: '1.50' });
  });
});
