/**
 * Cash business days: `GET /cash/business-days` of a small day against a large one, in the same run.
 * A location gets BENCH_SMALL sales (default 200) on one business day and BENCH_SALES (default 50,000)
 * on the next, in 1,000-record batches through the gateway; once cash has every one of them, the two
 * days are read alternately BENCH_READS times each (default 200) and the p50 of each is printed with
 * their ratio. A read that sums the day's sales grows with the large day (issue 13: 53 → 178 ms p50 at
 * 118k sales); cash keeps each day's expected amounts as sales arrive, so the ratio stays near 1.
 *
 *   npm run bench:cash-days          (BENCH_SALES=118000 to match the day)
 */
import os from 'node:os';
import { Client } from 'pg';
import { benchRequest, benchSession, startRuntimeProcess } from './runtime-process';

const small = Number(process.env.BENCH_SMALL ?? 200);
const large = Number(process.env.BENCH_SALES ?? 50_000);
const reads = Number(process.env.BENCH_READS ?? 200);
const batchSize = 1000;
const SMALL_DAY = '2026-10-01';
const LARGE_DAY = '2026-10-02';

function sale(day: string, i: number) {
  // 15:00 UTC is 11:00 in New York: inside the day (cut-off 04:00); a register per 100 sales, a few tender kinds
  const at = new Date(Date.parse(`${day}T15:00:00Z`) + (i % 36_000_000));
  const kind = i % 4;
  const tenders =
    kind === 0
      ? [{ type: 'cash', amount: '20.00', change: '3.80' }]
      : kind === 1
        ? [{ type: 'card', amount: '16.20' }]
        : kind === 2
          ? [{ type: 'platform', amount: '16.20', platform: 'ubereats' }]
          : [{ type: 'cash', amount: '10.00' }, { type: 'card', amount: '6.20' }];
  return {
    externalId: `${day}-${i}`,
    locationExternalId: 'BENCH-CASH',
    registerId: `R${i % 8}`,
    occurredAt: at.toISOString(),
    lines: [{ itemSku: 'COFFEE', name: 'Coffee', quantity: '3', unitPrice: '5.00', tax: '1.20' }],
    tenders,
    subtotal: '15.00',
    tax: '1.20',
    total: '16.20',
    currency: 'USD',
  };
}

const p50 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)];

async function main(): Promise<void> {
  const rt = await startRuntimeProcess({ API_INGEST_RATE_LIMIT_PER_MIN: '100000000', API_RATE_LIMIT_PER_MIN: '100000000' });
  const { base, pgPort } = rt;
  const request = (method: string, p: string, body: unknown, auth: string) => benchRequest(base, method, p, body, auth);
  const pg = new Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${pgPort}/bop` });
  pg.on('error', () => {}); // the runtime's Postgres stops after the run
  try {
    const session = await benchSession(base);
    const location = await request('POST', '/api/v1/locations', { name: 'Bench cafe', timezone: 'America/New_York', businessDayCutoff: '04:00', externalId: 'BENCH-CASH' }, session);
    const reg = await request('POST', '/api/v1/integrations', { manifest: { name: 'Bench POS', version: '1.0.0', description: 'bench', scopes: ['sales:write'], webhooks: [] } }, session);
    const key: string = reg.apiKey;
    await pg.connect();
    for (let i = 0; ; i++) {
      const ready = await pg.query(`select (select count(*) from sales.locations where external_id = 'BENCH-CASH')::int as sales, (select count(*) from cash.locations where id = $1)::int as cash`, [location.id]);
      if (ready.rows[0].sales === 1 && ready.rows[0].cash === 1) break;
      if (i > 300) throw new Error('sales or cash never replicated the location');
      await new Promise((r) => setTimeout(r, 100));
    }

    const started = performance.now();
    for (const [day, n] of [[SMALL_DAY, small], [LARGE_DAY, large]] as const) {
      for (let i = 0; i < n; i += batchSize) {
        const r = await request('POST', '/api/v1/sales/transactions:batch', JSON.stringify({ source: 'bench-cash', transactions: Array.from({ length: Math.min(batchSize, n - i) }, (_, j) => sale(day, i + j)) }), key);
        if (r.created !== r.received) throw new Error(`batch: ${JSON.stringify(r).slice(0, 300)}`);
      }
    }
    for (let i = 0; ; i++) {
      const got = await pg.query(`select count(*)::int as n from cash.sales_transactions where location_id = $1`, [location.id]);
      if (got.rows[0].n >= small + large) break;
      if (i > 6000) throw new Error(`cash stalled at ${got.rows[0].n} of ${small + large} sales`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const loadSeconds = (performance.now() - started) / 1000;

    const read = async (day: string) => {
      const t0 = performance.now();
      const r = await request('GET', `/api/v1/cash/business-days?locationId=${location.id}&from=${day}&to=${day}`, undefined, session);
      const ms = performance.now() - t0;
      if (r.data.length !== 1) throw new Error(`no day ${day}`);
      return { ms, figures: r.data[0].figures };
    };
    for (let i = 0; i < 20; i++) await read(i % 2 ? SMALL_DAY : LARGE_DAY); // warm-up
    const timings: Record<string, number[]> = { [SMALL_DAY]: [], [LARGE_DAY]: [] };
    for (let i = 0; i < reads; i++) {
      for (const day of i % 2 ? [SMALL_DAY, LARGE_DAY] : [LARGE_DAY, SMALL_DAY]) timings[day].push((await read(day)).ms);
    }
    // what the read used to do for the expected amounts: sum the tenders of every sale of the day (for comparison)
    const summed: Record<string, number[]> = { [SMALL_DAY]: [], [LARGE_DAY]: [] };
    for (let i = 0; i < 20; i++) {
      for (const day of [SMALL_DAY, LARGE_DAY]) {
        const t0 = performance.now();
        await pg.query(
          `select t."drawer_id", d->>'type', case when d->>'type' = 'platform' then d->>'platform' end, sum((d->>'amount')::numeric - coalesce((d->>'change')::numeric, 0))::text
           from cash.sales_transactions t, jsonb_array_elements(t.tenders) d where t.location_id = $1 and t.business_day = $2::date group by 1, 2, 3`,
          [location.id, day],
        );
        summed[day].push(performance.now() - t0);
      }
    }
    const big = (await read(LARGE_DAY)).figures;
    // exact to the cent: a quarter of the sales are 16.20 cash, a quarter 10.00 cash (+ card)
    const cash = (Math.ceil(large / 4) * 1620 + Math.floor(large / 4) * 1000) / 100;
    const smallP50 = p50(timings[SMALL_DAY]);
    const largeP50 = p50(timings[LARGE_DAY]);
    console.log(`cash business days: GET /cash/business-days of one day, ${reads} reads each, through the gateway; node ${process.versions.node}, ${os.cpus().length} cores, embedded Postgres`);
    console.log(`loaded ${small + large} sales in ${loadSeconds.toFixed(1)} s (until cash had them all)`);
    console.log(`small day (${String(small).padStart(6)} sales) p50 ${smallP50.toFixed(1)} ms`);
    console.log(`large day (${String(large).padStart(6)} sales) p50 ${largeP50.toFixed(1)} ms   ratio ${(largeP50 / smallP50).toFixed(2)} × the small day`);
    console.log(`for comparison, summing the day's sales in SQL (the former read): small day p50 ${p50(summed[SMALL_DAY]).toFixed(1)} ms, large day p50 ${p50(summed[LARGE_DAY]).toFixed(1)} ms`);
    console.log(`large day expectedCash ${big.expectedCash} (sum of the sales sent: ${cash.toFixed(2)}) ${big.expectedCash === cash.toFixed(2) ? 'agrees' : 'DIFFERS'}`);
  } finally {
    await pg.end().catch(() => {});
    await rt.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
