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
