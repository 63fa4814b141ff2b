/**
 * Labor cost across pay rates that start inside the range asked: `GET /kpis` sums an employee's hours
 * by rate period (from each rate's start to the day before the next) and prices each at the rate in
 * force, per position; the labor-vs-sales report prices each day at its own. Every figure derived by
 * hand below.
 */
import { eventually, person } from '@bop/test-support';
import { employee, recalculate, sendPunches, shift, startInsightsStack, type InsightsStack } from './fixtures';

let s: InsightsStack;
let nyc: string;

beforeAll(async () => {
  s = await startInsightsStack();
  nyc = s.locations['NYC-1'];
  // 20.00 an hour from January; 24.00 from Wednesday 2026-11-18; at the bar 30.00 from Thursday the 19th
  const a = await employee(s, nyc, [{ amount: '20.00' }]);
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
