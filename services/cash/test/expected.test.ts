/**
 * Expected amounts from sales (expected/): transactions ingested through the real sales service reach
 * cash as `sales.transactions.recorded`; cash keeps each transaction's newest version and sums per
 * drawer, tender type and platform — cash net of change, refunds negative, voids nothing.
 */
import { expectedAmounts } from '../src/expected/expected';
import { ingestSales, saleTransaction, startCashStack, type CashStack } from './fixtures';

let s: CashStack;
let nyc: string;

beforeAll(async () => {
  s = await startCashStack();
  nyc = s.locations['NYC-1'];
});
afterAll(async () => {
  await s?.stack.close();
});

const expected = async (day: string) => (await expectedAmounts(s.cash.svc.runtime.orm.em.fork(), nyc, [day])).get(day);

describe('expected amounts from sales', () => {
  it('sums tenders per drawer, type and platform: cash net of change, refunds negative, the day by the cut-off', async () => {
    const day = '2026-11-20';
    await ingestSales(s, [
      saleTransaction({ total: '18.50', tenders: [{ type: 'cash', amount: '20.00', change: '1.50' }], registerId: 'R1' }),
      saleTransaction({ total: '30.00', tenders: [{ type: 'card', amount: '10.00' }, { type: 'cash', amount: '20.00' }], registerId: 'R1' }),
      saleTransaction({ total: '12.00', tenders: [{ type: 'platform', amount: '12.00', platform: 'ubereats' }], registerId: 'R2' }),
      saleTransaction({ total: '-5.00', tenders: [{ type: 'cash', amount: '-5.00' }], registerId: 'R1' }),
      // 02:30 in New York on the 21st (07:30 UTC) is still the 20th's business day (cut-off 04:00)
      saleTransaction({ total: '7.00', tenders: [{ type: 'card', amount: '7.00' }], registerId: 'R2', occurredAt: '2026-11-21T07:30:00Z' }),
    ]);
    expect(await expected(day)).toEqual([
      { drawerId: 'R1', tenderType: 'card', platform: null, amount: '10.00', source: 'sales' },
      { drawerId: 'R1', tenderType: 'cash', platform: null, amount: '33.50', source: 'sales' },
      { drawerId: 'R2', tenderType: 'card', platform: null, amount: '7.00', source: 'sales' },
      { drawerId: 'R2', tenderType: 'platform', platform: 'ubereats', amount: '12.00', source: 'sales' },
    ]);
  });

  it('keeps the newest version: a void takes the transaction out, an older delivery changes nothing', async () => {
    const day = '2026-11-18';
    const tx = saleTransaction({ total: '40.00', tenders: [{ type: 'cash', amount: '40.00' }], registerId: 'R9', occurredAt: '2026-11-18T16:00:00Z' });
    const [id] = await ingestSales(s, [tx]);
    expect((await expected(day))?.find((a) => a.drawerId === 'R9')).toMatchObject({ amount: '40.00' });
    await ingestSales(s, [{ ...tx, status: 'voided' }]);
    expect((await expected(day))?.find((a) => a.drawerId === 'R9')).toBeUndefined();
    const [row] = await s.sql(`select version, status, tenders from cash.sales_transactions where id = ?`, [id]);
    expect(row).toMatchObject({ version: 2, status: 'voided', tenders: [] });
  });
});
