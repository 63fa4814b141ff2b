/**
 * Labor cost across pay rates: each share of hours is priced at the rate in force on its day for its
 * position as it is written, and again when a rate of its employee arrives later; `GET /kpis` and the
 * labor-vs-sales report add up the day sums Postgres keeps with those rows. Every figure derived by
 * hand below, Postgres' pricing checked against the kit's `payRateInForce` on generated rates, and the
 * migration's fill of a database upgraded with rows in it checked against what the triggers kept.
 */
import Decimal from 'decimal.js';
import { payRateInForce } from '@bop/shared';
import { eventually, person, sql } from '@bop/test-support';
import { PRICE_ROWS, FILL_DAY_SUMS } from '../src/migrations/Migration20261204100000';
import { employee, recalculate, sendPunches, shift, startInsightsStack, type InsightsStack } from './fixtures';

let s: InsightsStack;
let nyc: string;
let a: string;

beforeAll(async () => {
  s = await startInsightsStack();
  nyc = s.locations['NYC-1'];
  // 20.00 an hour from January; 24.00 from Wednesday 2026-11-18; at the bar 30.00 from Thursday the 19th
  a = await employee(s, nyc, [{ amount: '20.00' }]);
  for (const rate of [
    { amount: '24.00', position: null, effectiveDate: '2026-11-18' },
    { amount: '30.00', position: 'Bar', effectiveDate: '2026-11-19' },
  ]) {
    const r = await s.people.call('POST', `/employees/${a}/pay-rates`, { body: { type: 'hourly', ...rate } });
    if (r.status !== 201) throw new Error(`pay rate: ${r.status} ${JSON.stringify(r.body)}`);
  }
  // New York is UTC−5: 08:00–14:00 local is 13:00Z–19:00Z; 30 h in the week, no overtime
  await sendPunches(s, [
    ...shift(a, nyc, '2026-11-16T13:00:00Z', '2026-11-16T19:00:00Z', 'Cook'), // 6 h × 20 = 120.00
    ...shift(a, nyc, '2026-11-17T13:00:00Z', '2026-11-17T19:00:00Z', 'Cook'), // 6 h × 20 = 120.00
    ...shift(a, nyc, '2026-11-18T13:00:00Z', '2026-11-18T19:00:00Z', 'Cook'), // 6 h × 24 = 144.00
    ...shift(a, nyc, '2026-11-19T13:00:00Z', '2026-11-19T17:00:00Z', 'Bar'), //  4 h × 30 = 120.00
    ...shift(a, nyc, '2026-11-19T18:00:00Z', '2026-11-19T20:00:00Z', 'Cook'), // 2 h × 24 =  48.00
    ...shift(a, nyc, '2026-11-20T13:00:00Z', '2026-11-20T19:00:00Z', 'Bar'), //  6 h × 30 = 180.00
  ]);
  await recalculate(s);
}, 120_000);

afterAll(async () => {
  await s?.stack.close();
});

const labor = async (from: string, to: string) => {
  const r = await s.insights.call('GET', `/kpis?from=${from}&to=${to}&locationId=${nyc}`, { as: person() });
  return r.status === 200 ? { hours: r.body.figures.laborHours as string, cost: r.body.figures.laborCost as string } : { status: r.status };
};

it('prices each rate period of the range at its own rate, per position', async () => {
  // the week: 120 + 120 + 144 + 120 + 48 + 180
  await eventually(async () => (await labor('2026-11-16', '2026-11-20')).cost === '732.00', 20_000);
  expect(await labor('2026-11-16', '2026-11-20')).toEqual({ hours: '30.00', cost: '732.00' });
  // two rates start inside: 120 + 144 + 120 + 48
  expect(await labor('2026-11-17', '2026-11-19')).toEqual({ hours: '18.00', cost: '432.00' });
  // ranges starting on a rate's first day, and a single day
  expect(await labor('2026-11-18', '2026-11-20')).toEqual({ hours: '18.00', cost: '492.00' });
  expect(await labor('2026-11-19', '2026-11-20')).toEqual({ hours: '12.00', cost: '348.00' });
  expect(await labor('2026-11-16', '2026-11-17')).toEqual({ hours: '12.00', cost: '240.00' });
  expect(await labor('2026-11-19', '2026-11-19')).toEqual({ hours: '6.00', cost: '168.00' });
});

it('prices each day of the labor-vs-sales report at that day’s rates, adding up to the week', async () => {
  const r = await s.insights.call('GET', `/reports/labor-vs-sales?from=2026-11-16&to=2026-11-20&locationId=${nyc}&limit=100`, { as: person() });
  expect(r.status).toBe(200);
  expect(r.body.data.map((x: { businessDay: string; laborCost: string }) => [x.businessDay, x.laborCost])).toEqual([
    ['2026-11-16', '120.00'],
    ['2026-11-17', '120.00'],
    ['2026-11-18', '144.00'],
    ['2026-11-19', '168.00'],
    ['2026-11-20', '180.00'],
  ]);
});

it('prices hours again when a rate of their employee arrives after them, the position\'s own rate first', async () => {
  // a rate for every position from Friday: Friday's hours are at the bar, whose own rate (30.00) stays in force
  const any = await s.people.call('POST', `/employees/${a}/pay-rates`, { body: { type: 'hourly', amount: '26.00', position: null, effectiveDate: '2026-11-20' } });
  expect(any.status).toBe(201);
  await eventually(async () => (await sql(s.stack, `select 1 from insights.pay_rates where id = $1`, [any.body.id])).length === 1, 20_000);
  expect(await labor('2026-11-16', '2026-11-20')).toEqual({ hours: '30.00', cost: '732.00' });
  // the bar's own rate from Friday: 6 h × 33 = 198.00 instead of 180.00
  const bar = await s.people.call('POST', `/employees/${a}/pay-rates`, { body: { type: 'hourly', amount: '33.00', position: 'bar', effectiveDate: '2026-11-20' } });
  expect(bar.status).toBe(201);
  await eventually(async () => (await labor('2026-11-20', '2026-11-20')).cost === '198.00', 20_000);
  expect(await labor('2026-11-16', '2026-11-20')).toEqual({ hours: '30.00', cost: '750.00' });
  expect(await labor('2026-11-16', '2026-11-19')).toEqual({ hours: '24.00', cost: '552.00' });
});

describe('Postgres\' pricing and day sums', () => {
  /** generated: employees with hourly and salaried rates for every position or one (in any case), some on the same day */
  const rates: Array<{ id: string; employeeId: string; type: string; amount: string; position: string | null; effectiveDate: string }> = [];
  const hours: Array<{ id: string; employeeId: string; locationId: string; businessDay: string; position: string | null; regular: string; overtime: Record<string, string> }> = [];
  let seed = 7;
  const rnd = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
  const day = (d: number) => new Date(Date.UTC(2026, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
  const positions = [null, 'Cook', 'cook', 'Bar', 'Host'];

  beforeAll(async () => {
    for (let e = 0; e < 12; e++) {
      const employeeId = `emp_gen${e}`;
      for (let r = 0; r < 1 + rnd(5); r++) {
        rates.push({ id: `prt_gen${e}_${String.fromCharCode(65 + rnd(26))}${r}`, employeeId, type: rnd(6) === 0 ? 'salary' : 'hourly', amount: `${10 + rnd(20)}.${String(rnd(10_000)).padStart(4, '0')}`, position: positions[rnd(5)], effectiveDate: day(rnd(40)) });
      }
      for (let d = 0; d < 30; d++) {
        const position = positions[rnd(5)];
        hours.push({ id: `gen|${e}|${d}`, employeeId, locationId: `loc_gen${e % 3}`, businessDay: day(5 + d), position, regular: `${rnd(9)}.${String(rnd(10_000)).padStart(4, '0')}`, overtime: rnd(3) === 0 ? { '1.5': `${rnd(3)}.25`, ...(rnd(2) ? { '2': '0.5' } : {}) } : {} });
      }
    }
    // half the rates before the hours (priced as written), half after (priced again)
    const insertRates = (rs: typeof rates) =>
      sql(s.stack, `insert into insights.pay_rates (id, employee_id, type, amount, position, effective_date) select * from jsonb_to_recordset($1::jsonb) as x(id text, "employeeId" text, type text, amount numeric, position text, "effectiveDate" date)`, [JSON.stringify(rs)]);
    await insertRates(rates.filter((_, i) => i % 2 === 0));
    await sql(
      s.stack,
      `insert into insights.labor_hours (id, timesheet_id, employee_id, location_id, business_day, position, regular_hours, overtime)
       select x.id, 'tsh_gen', x."employeeId", x."locationId", x."businessDay", x.position, x.regular, x.overtime from jsonb_to_recordset($1::jsonb) as x(id text, "employeeId" text, "locationId" text, "businessDay" date, position text, regular numeric, overtime jsonb)`,
      [JSON.stringify(hours)],
    );
    await sql(
      s.stack,
      `insert into insights.scheduled_shifts (shift_id, version, location_id, business_day, employee_id, position, paid_hours, status)
       select 'gen-shift-' || g, 1, 'loc_gen' || (g % 3), date '2026-01-06' + g % 30, case when g % 5 = 0 then null else 'emp_gen' || (g % 12) end,
              (array['Cook', 'bar', null])[1 + g % 3], 4 + (g % 4) * 0.25, case when g % 4 = 0 then 'draft' else 'published' end
       from generate_series(0, 119) g`,
    );
    await sql(
      s.stack,
      `insert into insights.stock_flows (id, location_id, business_day, item_id, flow, quantity, value, unvalued)
       select 'gen-flow-' || g, 'loc_gen' || (g % 3), date '2026-01-06' + g % 30, 'itm_gen' || (g % 4), (array['sale', 'receipt', 'waste'])[1 + g % 3], -g, -g * 1.25, 0
       from generate_series(0, 89) g`,
    );
    await insertRates(rates.filter((_, i) => i % 2 === 1));
  });

  /** the cost of a row as the kit prices hours: the rate in force (payRateInForce), hourly only */
  const expected = (h: (typeof hours)[number]) => {
    const rate = payRateInForce(rates.filter((r) => r.employeeId === h.employeeId), h.businessDay, h.position);
    if (!rate || rate.type !== 'hourly') return null;
    return Object.entries(h.overtime).reduce((c, [m, x]) => c.plus(new Decimal(x).times(rate.amount).times(m)), new Decimal(h.regular).times(rate.amount));
  };
  const held = async () => new Map((await sql(s.stack, `select id, cost::text from insights.labor_hours where timesheet_id = 'tsh_gen'`)).map((r) => [r.id as string, r.cost as string | null]));
  const daySums = () => sql(s.stack, `select location_id, to_char(business_day, 'YYYY-MM-DD') as day, hours::numeric(20,6)::text, cost::numeric(20,6)::text from insights.labor_days where location_id like 'loc_gen%' order by 1, 2`);

  it('prices every row at the rate the kit finds in force (hourly only; ties to the later id), whichever came first', async () => {
    const costs = await held();
    expect(costs.size).toBe(hours.length);
    const wrong = hours.filter((h) => {
      const want = expected(h);
      const got = costs.get(h.id) ?? null;
      return want === null ? got !== null : got === null || !new Decimal(got).eq(want);
    });
    expect(wrong.map((h) => ({ ...h, cost: costs.get(h.id), expected: expected(h)?.toFixed() ?? null }))).toEqual([]);
    expect([...costs.values()].filter((c) => c === null).length).toBeGreaterThan(0);
  });

  it('keeps the day sums equal to the rows through inserts, updates and deletes', async () => {
    await sql(s.stack, `update insights.labor_hours set regular_hours = regular_hours + 1 where timesheet_id = 'tsh_gen' and business_day < $1`, [day(12)]);
    await sql(s.stack, `update insights.labor_hours set location_id = 'loc_gen9' where id = any($1)`, [hours.filter((_, i) => i % 7 === 0).map((h) => h.id)]);
    await sql(s.stack, `delete from insights.labor_hours where id = any($1)`, [hours.filter((_, i) => i % 5 === 0).map((h) => h.id)]);
    await sql(s.stack, `delete from insights.pay_rates where id = any($1)`, [rates.filter((_, i) => i % 4 === 0).map((r) => r.id)]);
    rates.splice(0, rates.length, ...rates.filter((_, i) => i % 4 !== 0));
    const costs = await held();
    for (const [id, cost] of costs) {
      const h = hours.find((x) => x.id === id)!;
      const e = expected({ ...h, regular: h.businessDay < day(12) ? new Decimal(h.regular).plus(1).toFixed() : h.regular });
      expect({ id, cost: cost === null ? null : new Decimal(cost).toFixed() }).toEqual({ id, cost: e?.toFixed() ?? null });
    }
    const recount = await sql(
      s.stack,
      `select location_id, to_char(business_day, 'YYYY-MM-DD') as day,
              sum(regular_hours + (select coalesce(sum(v::numeric), 0) from jsonb_each_text(overtime) o(k, v)))::numeric(20,6)::text as hours, coalesce(sum(cost), 0)::numeric(20,6)::text as cost
       from insights.labor_hours where location_id like 'loc_gen%' group by 1, 2 order by 1, 2`,
    );
    // a day whose hours all moved or went is gone, not kept at zero
    expect(await daySums()).toEqual(recount);
    // drafts published (as schedule.published marks them), a shift moved and one deleted: published shifts only, at the rate in force
    await sql(s.stack, `update insights.scheduled_shifts set status = 'published' where shift_id in ('gen-shift-0', 'gen-shift-4')`);
    await sql(s.stack, `update insights.scheduled_shifts set business_day = business_day + 1, paid_hours = 9 where shift_id = 'gen-shift-1'`);
    await sql(s.stack, `delete from insights.scheduled_shifts where shift_id = 'gen-shift-2'`);
    const shiftRecount = await sql(
      s.stack,
      `select location_id, to_char(business_day, 'YYYY-MM-DD') as day, sum(paid_hours)::numeric(20,6)::text as hours,
              coalesce(sum(insights.hourly_rate(employee_id, business_day, position) * paid_hours), 0)::numeric(20,6)::text as cost
       from insights.scheduled_shifts where location_id like 'loc_gen%' and status = 'published' group by 1, 2 order by 1, 2`,
    );
    const shiftKept = await sql(s.stack, `select location_id, to_char(business_day, 'YYYY-MM-DD') as day, hours::numeric(20,6)::text, cost::numeric(20,6)::text from insights.shift_days where location_id like 'loc_gen%' order by 1, 2`);
    expect(shiftKept).toEqual(shiftRecount);
    expect(shiftKept.length).toBeGreaterThan(20);
  });

  it('the migration prices the rows and fills the day sums of a database upgraded with rows in it to what the triggers keep', async () => {
    const costs = await held();
    const sums = {
      labor: await sql(s.stack, `select location_id, business_day, hours::numeric(20,6)::text, cost::numeric(20,6)::text from insights.labor_days order by 1, 2`),
      shifts: await sql(s.stack, `select location_id, business_day, hours::numeric(20,6)::text, cost::numeric(20,6)::text from insights.shift_days order by 1, 2`),
      flows: await sql(s.stack, `select location_id, business_day, flow, value::numeric(24,6)::text from insights.flow_days order by 1, 2, 3`),
    };
    await sql(s.stack, `update insights.labor_hours set cost = null`);
    await sql(s.stack, `update insights.scheduled_shifts set cost = null`);
    for (const statement of PRICE_ROWS) await sql(s.stack, statement);
    expect(await held()).toEqual(costs);
    for (const table of ['labor_days', 'shift_days', 'flow_days']) await sql(s.stack, `delete from insights.${table}`);
    for (const statement of FILL_DAY_SUMS) await sql(s.stack, statement);
    expect(await sql(s.stack, `select location_id, business_day, hours::numeric(20,6)::text, cost::numeric(20,6)::text from insights.labor_days order by 1, 2`)).toEqual(sums.labor);
    expect(await sql(s.stack, `select location_id, business_day, hours::numeric(20,6)::text, cost::numeric(20,6)::text from insights.shift_days order by 1, 2`)).toEqual(sums.shifts);
    expect(await sql(s.stack, `select location_id, business_day, flow, value::numeric(24,6)::text from insights.flow_days order by 1, 2, 3`)).toEqual(sums.flows);
    expect(sums.labor.length).toBeGreaterThan(0);
  });
});
