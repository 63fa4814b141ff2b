import { SalesTransactionInput } from '@bop/contracts';

let n = 0;
/** A valid sale as an integration sends it: 2 × 4.50 + 1 × 3.00, 10 % line tax, paid 20 cash with change. */
export function newTransactionBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  n += 1;
  return {
    externalId: `T-${n}`,
    locationExternalId: 'POS-1',
    occurredAt: '2026-11-21T14:30:00Z',
    type: 'sale',
    channel: 'in_store',
    lines: [
      { itemSku: 'LATTE', name: 'Latte', quantity: '2', unitPrice: '4.50', tax: '0.90' },
      { itemSku: 'MUFFIN', name: 'Muffin', quantity: '1', unitPrice: '3.00', tax: '0.30' },
    ],
    tenders: [{ type: 'cash', amount: '20.00', change: '6.80' }],
    subtotal: '12.00',
    tax: '1.20',
    total: '13.20',
    currency: 'USD',
    ...over,
  };
}

export function parseTransaction(body: unknown) {
  return SalesTransactionInput.parse(body);
}

/** A sale at location NYC-1 (New York, cut-off 04:00): 2 burgers less 1.00 and a soda, 19.71 paid cash with 0.29 change. */
export function nycSale(externalId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    externalId,
    locationExternalId: 'NYC-1',
    occurredAt: '2026-11-20T15:00:00Z',
    type: 'sale',
    lines: [
      { itemSku: 'BURGER', name: 'Burger', quantity: '2', unitPrice: '8.50', discount: '1.00', tax: '1.28' },
      { itemSku: 'SODA', name: 'Soda', quantity: '1', unitPrice: '2.25', tax: '0.18' },
    ],
    tenders: [{ type: 'cash', amount: '20.00', change: '0.29' }],
    subtotal: '18.25',
    tax: '1.46',
    total: '19.71',
    currency: 'USD',
    ...over,
  };
}

export const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** NYC-1's summary of business day `day` (cut-off 04:00 in New York: 09:00Z to 09:00Z in winter). */
export function nycDaySummary(externalId: string, day: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    externalId,
    locationExternalId: 'NYC-1',
    periodStart: `${day}T09:00:00Z`,
    periodEnd: `${nextDay(day)}T09:00:00Z`,
    grossSales: '1250.40',
    discounts: '50.40',
    netSales: '1200.00',
    tax: '96.00',
    transactions: 80,
    guests: 95,
    currency: 'USD',
    byChannel: [
      { channel: 'in_store', netSales: '900.00', transactions: 60 },
      { channel: 'delivery', netSales: '300.00', transactions: 20 },
    ],
    ...over,
  };
}

/** A valid online order as a store sends it: 3 × 0.10 + 1 × 12.00, shipping 4.99 (source shop-main, fulfilled at WH-A). */
export function newOrderBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    source: 'shop-main',
    customer: { externalId: 'C-1', name: 'Ada Lovelace', email: 'ada@example.com' },
    locationExternalId: 'WH-A',
    placedAt: '2026-11-21T09:30:00Z',
    lines: [
      { itemExternalId: 'SKU-PEN', name: 'Pen', quantity: '3', unitPrice: '0.10' },
      { itemExternalId: 'SKU-BOOK', name: 'Book', quantity: '1', unitPrice: '12.00' },
    ],
    shipping: { method: 'standard', amount: '4.99', address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' } },
    paymentStatus: 'paid',
    currency: 'USD',
    ...over,
  };
}
