/**
 * Expected amounts from sales (expected/): transactions ingested through the real sales service reach
 * cash as `sales.transactions.recorded`; cash keeps each transaction's newest version and sums per
 * drawer, tender type and platform — cash net of change, refunds negative, voids nothing.
 */
import type { ExpectedAmount } from '@bop/contracts';
import { fmtAmount } from '@bop/shared';
import type { RecordedTransaction } from '../src/expected/consumers';
import { applyRecordedTenders, expectedAmounts } from '../src/expected/store';
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

const expected = async (day: string) => (await s.cash.svc.runtime.read((w) => expectedAmounts(w, nyc, [day]))).get(day);

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

describe('the running expected amounts (kept per day as sales arrive)', () => {
  const apply = (list: RecordedTransaction[]) => s.cash.svc.runtime.write((w) => applyRecordedTenders(w, list));
  const tx = (id: string, version: number, over: Partial<RecordedTransaction> = {}): RecordedTransaction => ({
    id,
    version,
    locationId: nyc,
    businessDay: '2026-10-01',
    status: 'completed',
    registerId: 'R1',
    tenders: [{ type: 'cash', amount: '10.00' }],
    ...over,
  });
  /** the expected amounts from sales summed afresh from every stored transaction (the definition) */
  const summedAfresh = async (locationId: string, day: string): Promise<ExpectedAmount[]> =>
    (
      (await s.cash.svc.runtime.orm.em
        .getConnection()
        .execute(
          `select t."drawer_id", d->>'type' as "tender_type", case when d->>'type' = 'platform' then d->>'platform' end as "platform",
             sum((d->>'amount')::numeric - coalesce((d->>'change')::numeric, 0))::text as "amount"
           from "cash"."sales_transactions" t, jsonb_array_elements(t."tenders") d
           where t."location_id" = ? and t."business_day" = ?::date group by 1, 2, 3`,
          [locationId, day],
        )) as Array<{ drawer_id: string | null; tender_type: ExpectedAmount['tenderType']; platform: string | null; amount: string }>
    )
      .map((r): ExpectedAmount => ({ drawerId: r.drawer_id, tenderType: r.tender_type, platform: r.platform, amount: fmtAmount(r.amount), source: 'sales' }))
      .sort((a, b) => (a.drawerId ?? '').localeCompare(b.drawerId ?? '') || a.tenderType.localeCompare(b.tenderType) || (a.platform ?? '').localeCompare(b.platform ?? ''));
  const both = async (locationId: string, day: string) => [(await s.cash.svc.runtime.read((w) => expectedAmounts(w, locationId, [day]))).get(day), await summedAfresh(locationId, day)];

  it('apply the difference between versions: changed tenders, a moved drawer, day or location, a void, replays and old versions', async () => {
    const ber = s.locations['BER-1'];
    await apply([
      tx('stx_run_1', 1, { tenders: [{ type: 'cash', amount: '20.00', change: '1.53' }] }),
      tx('stx_run_2', 1, { tenders: [{ type: 'card', amount: '7.01' }, { type: 'platform', amount: '3.00', platform: 'UberEats' }] }),
      tx('stx_run_3', 1, { registerId: null, tenders: [{ type: 'cash', amount: '0.000001' }] }),
      tx('stx_run_4', 1, { tenders: [{ type: 'platform', amount: '2.00', platform: 'ubereats' }, { type: 'cash', amount: '-4.00' }] }),
    ]);
    let [kept, afresh] = await both(nyc, '2026-10-01');
    expect(kept).toEqual(afresh);
    expect(kept).toEqual([
      { drawerId: null, tenderType: 'cash', platform: null, amount: '0.00', source: 'sales' },
      { drawerId: 'R1', tenderType: 'card', platform: null, amount: '7.01', source: 'sales' },
      { drawerId: 'R1', tenderType: 'cash', platform: null, amount: '14.47', source: 'sales' },
      { drawerId: 'R1', tenderType: 'platform', platform: 'ubereats', amount: '2.00', source: 'sales' },
      { drawerId: 'R1', tenderType: 'platform', platform: 'UberEats', amount: '3.00', source: 'sales' },
    ]);

    await apply([
      tx('stx_run_1', 2, { registerId: 'R2', tenders: [{ type: 'card', amount: '18.47' }] }), // another drawer and tender
      tx('stx_run_1', 1, { tenders: [{ type: 'cash', amount: '99.00' }] }), // an older version in the same batch
      tx('stx_run_2', 2, { status: 'voided' }),
      tx('stx_run_3', 2, { businessDay: '2026-10-02' }), // another day
      tx('stx_run_4', 2, { locationId: ber }), // another location
    ]);
    await apply([tx('stx_run_1', 2, { tenders: [{ type: 'cash', amount: '50.00' }] }), tx('stx_run_2', 1)]); // replays and an old version change nothing
    [kept, afresh] = await both(nyc, '2026-10-01');
    expect(kept).toEqual(afresh);
    expect(kept).toEqual([{ drawerId: 'R2', tenderType: 'card', platform: null, amount: '18.47', source: 'sales' }]);
    for (const [loc, day] of [[nyc, '2026-10-02'], [ber, '2026-10-01']]) {
      [kept, afresh] = await both(loc, day);
      expect(kept).toEqual(afresh);
      expect(kept).toHaveLength(1);
    }

    await apply([tx('stx_run_2', 3, { tenders: [{ type: 'card', amount: '1.00' }] })]); // a voided one back (as sales would never send; still summed right)
    [kept, afresh] = await both(nyc, '2026-10-01');
    expect(kept).toEqual(afresh);
  });
});
