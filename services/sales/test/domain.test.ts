import { SalesTransactionBatch, SalesTransactionInput } from '@bop/contracts';
import { zodFieldErrors } from '@bop/shared';
import { businessDayOf, checkTransaction, contentHashOf, formatMoney, minorUnits, normalizeTransaction, transactionColumns } from '../src';
import { newTransactionBody, parseTransaction } from './fixtures';

const paths = (errs: Array<{ path: string }>) => errs.map((e) => e.path).sort();
const schemaErrors = (body: unknown) => {
  const r = SalesTransactionInput.safeParse(body);
  return r.success ? [] : zodFieldErrors(r.error);
};
const loc = { id: 'loc_1', timezone: 'America/New_York', businessDayCutoff: '04:00' };

describe('SalesTransactionInput (schema)', () => {
  it('accepts a valid sale and applies defaults', () => {
    const t = parseTransaction(newTransactionBody({ type: undefined }));
    expect(t.type).toBe('sale');
    expect(t.status).toBe('completed');
    expect(t.lines[0].discount).toBe('0');
  });

  it('refuses decimals sent as JSON numbers', () => {
    const errs = schemaErrors(newTransactionBody({ total: 13.2, lines: [{ quantity: 2, unitPrice: '4.50' }] }));
    expect(errs).toEqual(expect.arrayContaining([
      { path: 'total', message: 'send decimals as strings' },
      { path: 'lines[0].quantity', message: 'send decimals as strings' },
    ]));
  });

  it('refuses malformed decimals, unknown currencies and non-UTC timestamps', () => {
    const errs = schemaErrors(newTransactionBody({ subtotal: '1,00', currency: 'XYZ', occurredAt: '2026-11-21T09:30:00+01:00' }));
    expect(paths(errs)).toEqual(['currency', 'occurredAt', 'subtotal']);
    expect(errs.find((e) => e.path === 'occurredAt')?.message).toBe('send occurredAt in UTC');
    expect(schemaErrors(newTransactionBody({ occurredAt: '2026-11-21T09:30:00+00:00' }))).toEqual([]);
    expect(paths(schemaErrors(newTransactionBody({ occurredAt: 'yesterday' })))).toEqual(['occurredAt']);
  });

  it('needs exactly one location reference, a line on sales and a platform name on platform tenders', () => {
    expect(paths(schemaErrors(newTransactionBody({ locationId: 'loc_1' })))).toEqual(['locationId']);
    expect(paths(schemaErrors(newTransactionBody({ locationExternalId: undefined })))).toEqual(['locationId']);
    expect(paths(schemaErrors(newTransactionBody({ lines: [] })))).toEqual(['lines']);
    expect(paths(schemaErrors(newTransactionBody({ tenders: [{ type: 'platform', amount: '13.20' }] })))).toEqual(['tenders[0].platform']);
  });

  it('keeps batch records unvalidated so each gets its own result', () => {
    expect(SalesTransactionBatch.safeParse({ source: 'pos', transactions: [{}, 1] }).success).toBe(true);
    expect(SalesTransactionBatch.safeParse({ source: '', transactions: [{}] }).success).toBe(false);
  });
});

describe('checkTransaction', () => {
  it('accepts a consistent sale paid in cash with change', () => {
    expect(checkTransaction(parseTransaction(newTransactionBody()))).toEqual([]);
  });

  it('accepts split tenders and discounts', () => {
    const t = parseTransaction(newTransactionBody({
      lines: [{ quantity: '3', unitPrice: '2.00', discount: '1.00' }],
      subtotal: '5.00', tax: '0.40', total: '5.40',
      tenders: [{ type: 'card', amount: '3.00' }, { type: 'platform', platform: 'UberEats', amount: '2.40' }],
    }));
    expect(checkTransaction(t)).toEqual([]);
  });

  it('rejects tenders that do not add up, stating both figures', () => {
    const errs = checkTransaction(parseTransaction(newTransactionBody({ tenders: [{ type: 'card', amount: '13.00' }] })));
    expect(errs).toEqual([{ path: 'tenders', message: expect.stringMatching(/13\.00.*13\.20/) }]);
  });

  it('refuses change on a non-cash tender', () => {
    const errs = checkTransaction(parseTransaction(newTransactionBody({ tenders: [{ type: 'card', amount: '13.20', change: '0.00' }] })));
    expect(paths(errs)).toEqual(['tenders[0].change']);
  });

  it('reports subtotal, tax and total mismatches with their paths', () => {
    expect(paths(checkTransaction(parseTransaction(newTransactionBody({ subtotal: '12.01', total: '13.21', tenders: [{ type: 'card', amount: '13.21' }] }))))).toEqual(['subtotal']);
    expect(paths(checkTransaction(parseTransaction(newTransactionBody({ tax: '1.00', total: '13.00', tenders: [{ type: 'card', amount: '13.00' }] }))))).toEqual(['tax']);
    expect(paths(checkTransaction(parseTransaction(newTransactionBody({ total: '13.30', tenders: [{ type: 'card', amount: '13.30' }] }))))).toEqual(['total']);
  });

  it('takes header tax as sent when lines carry none', () => {
    const t = parseTransaction(newTransactionBody({
      lines: [{ quantity: '1', unitPrice: '10.00' }], subtotal: '10.00', tax: '0.80', total: '10.80', tenders: [{ type: 'card', amount: '10.80' }],
    }));
    expect(checkTransaction(t)).toEqual([]);
  });

  it('compares after rounding to the currency minor units, not floats', () => {
    // 3 × 0.333333 = 0.999999 → 1.00; 0.1 + 0.2 stays exact
    const t = parseTransaction(newTransactionBody({
      lines: [{ quantity: '3', unitPrice: '0.333333' }, { quantity: '1', unitPrice: '0.1' }, { quantity: '1', unitPrice: '0.2' }],
      subtotal: '1.30', tax: '0', total: '1.3', tenders: [{ type: 'cash', amount: '1.3' }],
    }));
    expect(checkTransaction(t)).toEqual([]);
    const jpy = parseTransaction(newTransactionBody({
      currency: 'JPY', lines: [{ quantity: '1', unitPrice: '500' }], subtotal: '500', tax: '0', total: '500', tenders: [{ type: 'cash', amount: '1000', change: '500' }],
    }));
    expect(checkTransaction(jpy)).toEqual([]);
    expect(minorUnits('JPY')).toBe(0);
    expect(minorUnits('KWD')).toBe(3);
  });

  it('needs negative quantities and a non-positive total on refunds, positive quantities on sales', () => {
    const refund = newTransactionBody({
      type: 'refund', refundOf: 'T-1', lines: [{ quantity: '-1', unitPrice: '3.00', tax: '-0.30' }],
      subtotal: '-3.00', tax: '-0.30', total: '-3.30', tenders: [{ type: 'card', amount: '-3.30' }],
    });
    expect(checkTransaction(parseTransaction(refund))).toEqual([]);
    const badRefund = parseTransaction({ ...refund, lines: [{ quantity: '1', unitPrice: '3.00', tax: '0.30' }], subtotal: '3.00', tax: '0.30', total: '3.30', tenders: [{ type: 'card', amount: '3.30' }] });
    expect(paths(checkTransaction(badRefund))).toEqual(['lines[0].quantity', 'total']);
    const badSale = parseTransaction(newTransactionBody({ lines: [{ quantity: '-1', unitPrice: '3.00' }], subtotal: '-3.00', tax: '0', total: '-3.00', tenders: [{ type: 'card', amount: '-3.00' }] }));
    expect(paths(checkTransaction(badSale))).toEqual(['lines[0].quantity']);
    expect(paths(checkTransaction(parseTransaction(newTransactionBody({ refundOf: 'T-1' }))))).toEqual(['refundOf']);
  });

  it('still checks voided records', () => {
    expect(paths(checkTransaction(parseTransaction(newTransactionBody({ status: 'voided', total: '99.00' }))))).toEqual(['tenders', 'total']);
  });
});

describe('businessDayOf (spec: ingestion rule 8)', () => {
  it('puts 01:30 before a 04:00 cut-off on the previous day', () => {
    expect(businessDayOf('2026-11-21T06:30:00Z', 'America/New_York', '04:00')).toBe('2026-11-20'); // 01:30 EST
    expect(businessDayOf('2026-11-21T09:00:00Z', 'America/New_York', '04:00')).toBe('2026-11-21'); // 04:00 EST
    expect(businessDayOf('2026-11-21T08:59:59Z', 'America/New_York', '04:00')).toBe('2026-11-20'); // 03:59 EST
  });

  it('with a 00:00 cut-off the business day is the local date', () => {
    expect(businessDayOf('2026-11-21T04:59:00Z', 'America/New_York', '00:00')).toBe('2026-11-20');
    expect(businessDayOf('2026-11-21T05:00:00Z', 'America/New_York', '00:00')).toBe('2026-11-21');
    expect(businessDayOf('2026-12-31T23:30:00Z', 'Europe/Berlin', '00:00')).toBe('2027-01-01');
  });

  it('New York spring forward 2026-03-08 (02:00–03:00 skipped)', () => {
    expect(businessDayOf('2026-03-08T06:59:00Z', 'America/New_York', '04:00')).toBe('2026-03-07'); // 01:59 EST
    expect(businessDayOf('2026-03-08T07:00:00Z', 'America/New_York', '04:00')).toBe('2026-03-07'); // 03:00 EDT
    expect(businessDayOf('2026-03-08T08:00:00Z', 'America/New_York', '04:00')).toBe('2026-03-08'); // 04:00 EDT
    // a cut-off inside the skipped hour takes effect at 03:00 EDT
    expect(businessDayOf('2026-03-08T06:59:00Z', 'America/New_York', '02:30')).toBe('2026-03-07');
    expect(businessDayOf('2026-03-08T07:00:00Z', 'America/New_York', '02:30')).toBe('2026-03-08');
  });

  it('New York fall back 2026-11-01 (01:00–02:00 twice)', () => {
    expect(businessDayOf('2026-11-01T05:30:00Z', 'America/New_York', '04:00')).toBe('2026-10-31'); // 01:30 EDT
    expect(businessDayOf('2026-11-01T06:30:00Z', 'America/New_York', '04:00')).toBe('2026-10-31'); // 01:30 EST
    expect(businessDayOf('2026-11-01T09:00:00Z', 'America/New_York', '04:00')).toBe('2026-11-01'); // 04:00 EST
    expect(businessDayOf('2026-11-01T08:59:00Z', 'America/New_York', '04:00')).toBe('2026-10-31'); // 03:59 EST
    // both passes through 01:15 fall before a 01:30 cut-off
    expect(businessDayOf('2026-11-01T05:15:00Z', 'America/New_York', '01:30')).toBe('2026-10-31');
    expect(businessDayOf('2026-11-01T06:15:00Z', 'America/New_York', '01:30')).toBe('2026-10-31');
    expect(businessDayOf('2026-11-01T06:45:00Z', 'America/New_York', '01:30')).toBe('2026-11-01');
  });

  it('Berlin spring forward 2026-03-29 (02:00–03:00 skipped)', () => {
    expect(businessDayOf('2026-03-29T00:59:00Z', 'Europe/Berlin', '04:00')).toBe('2026-03-28'); // 01:59 CET
    expect(businessDayOf('2026-03-29T01:00:00Z', 'Europe/Berlin', '04:00')).toBe('2026-03-28'); // 03:00 CEST
    expect(businessDayOf('2026-03-29T02:00:00Z', 'Europe/Berlin', '04:00')).toBe('2026-03-29'); // 04:00 CEST
    expect(businessDayOf('2026-03-29T01:00:00Z', 'Europe/Berlin', '02:30')).toBe('2026-03-29'); // 03:00 CEST
  });

  it('Berlin fall back 2026-10-25 (02:00–03:00 twice)', () => {
    expect(businessDayOf('2026-10-25T00:30:00Z', 'Europe/Berlin', '04:00')).toBe('2026-10-24'); // 02:30 CEST
    expect(businessDayOf('2026-10-25T01:30:00Z', 'Europe/Berlin', '04:00')).toBe('2026-10-24'); // 02:30 CET
    expect(businessDayOf('2026-10-25T02:59:00Z', 'Europe/Berlin', '04:00')).toBe('2026-10-24'); // 03:59 CET
    expect(businessDayOf('2026-10-25T03:00:00Z', 'Europe/Berlin', '04:00')).toBe('2026-10-25'); // 04:00 CET
    expect(businessDayOf('2026-10-24T22:00:00Z', 'Europe/Berlin', '00:00')).toBe('2026-10-25'); // 00:00 CEST
  });
});

describe('normalizeTransaction', () => {
  it('stores canonical decimals, line totals and the business day', () => {
    const n = normalizeTransaction(parseTransaction(newTransactionBody({ occurredAt: '2026-11-21T06:30:00Z' })), loc);
    expect(n).toMatchObject({ locationId: 'loc_1', occurredAt: '2026-11-21T06:30:00.000Z', businessDay: '2026-11-20', subtotal: '12.00', total: '13.20', channel: 'in_store', registerId: null });
    expect(n.lines[0]).toEqual({ itemSku: 'LATTE', itemBarcode: null, itemExternalId: null, itemId: null, name: 'Latte', quantity: '2', unitPrice: '4.50', discount: '0.00', tax: '0.90', lineTotal: '9.00' });
    expect(n.tenders[0]).toEqual({ type: 'cash', amount: '20.00', change: '6.80', platform: null });
    expect(n.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(transactionColumns('pos', 'T-1', n)).toMatchObject({ source: 'pos', external_id: 'T-1', business_day: '2026-11-20', content_hash: n.contentHash });
  });

  it('hashes the same content alike regardless of key order or decimal spelling, and differently otherwise', () => {
    const a = newTransactionBody({ externalId: 'X' });
    const reordered = Object.fromEntries(Object.entries(a).reverse());
    const respelled = { ...a, subtotal: '12.0', total: '13.200', lines: [{ tax: '0.9', unitPrice: '4.5', quantity: '2.00', name: 'Latte', itemSku: 'LATTE' }, (a.lines as unknown[])[1]], occurredAt: '2026-11-21T14:30:00.000+00:00' };
    const h = normalizeTransaction(parseTransaction(a), loc).contentHash;
    expect(normalizeTransaction(parseTransaction(reordered), loc).contentHash).toBe(h);
    expect(normalizeTransaction(parseTransaction(respelled), loc).contentHash).toBe(h);
    expect(normalizeTransaction(parseTransaction({ ...a, status: 'voided' }), loc).contentHash).not.toBe(h);
    // the business day is derived, not hashed: a cut-off change alone does not make a record "updated"
    expect(normalizeTransaction(parseTransaction(a), { ...loc, businessDayCutoff: '00:00' }).contentHash).toBe(h);
    expect(contentHashOf({ ...normalizeTransaction(parseTransaction(a), loc), lines: [] })).not.toBe(h);
  });

  it('formats money to the currency and keeps extra precision when sent', () => {
    expect(formatMoney('10.5', 'USD')).toBe('10.50');
    expect(formatMoney('1.2345', 'USD')).toBe('1.2345');
    expect(formatMoney('12.500000', 'USD')).toBe('12.50');
    expect(formatMoney('-0.00', 'USD')).toBe('0.00');
    expect(formatMoney('500.000000', 'JPY')).toBe('500');
  });
});
