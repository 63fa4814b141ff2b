/**
 * Reports and their exports on a small generated chain (sales through sales' API with item lines,
 * channels and two sources, punches through time's, waste at inventory, a closed cash day): every row
 * compared with a value derived by hand, every report's sums equal to `GET /kpis` for the same scope,
 * each labor-vs-sales row equal to `GET /kpis` of its location and day, cursor pages, parameters,
 * reach, permission; an export run by its worker, downloaded from the files service and parsed (CSV
 * and XLSX) equal to the report.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Decimal from 'decimal.js';
import ExcelJS from 'exceljs';
import { eventually, integration, person, testKeys, type HttpResult } from '@bop/test-support';
import { closeCashDay, employee, recalculate, recordWaste, sendPunches, shift, startInsightsStack, unique, type InsightsStack } from './fixtures';

let s: InsightsStack;
let nyc: string;
let ber: string;
let filesDir: string;
const people: Record<string, string> = {};

type Line = { sku?: string; name: string; quantity: string; unitPrice: string; discount?: string };
function ticket(location: string, occurredAt: string, lines: Line[], o: { channel?: string; status?: 'voided'; externalId?: string } = {}) {
  const refund = lines[0].quantity.startsWith('-');
  const subtotal = lines.reduce((n, l) => n.plus(new Decimal(l.quantity).times(l.unitPrice).minus(l.discount ?? '0')), new Decimal(0)).toFixed(2);
  return {
    externalId: o.externalId ?? unique('tx'),
    locationExternalId: location,
    occurredAt,
    type: refund ? 'refund' : 'sale',
    ...(o.status ? { status: o.status } : {}),
    ...(o.channel ? { channel: o.channel } : {}),
    lines: lines.map((l) => ({ ...(l.sku ? { itemSku: l.sku } : {}), name: l.name, quantity: l.quantity, unitPrice: l.unitPrice, ...(l.discount ? { discount: l.discount } : {}) })),
    tenders: [{ type: 'card', amount: subtotal }],
    subtotal,
    tax: '0.00',
    total: subtotal,
    currency: 'USD',
  };
}
async function send(source: string, transactions: unknown[]) {
  const r = await s.sales.call('POST', '/sales/transactions:batch', { as: integration(['sales:write']), body: { source, transactions } });
  if (r.status !== 202 || r.body.rejected > 0) throw new Error(`sales batch: ${r.status} ${JSON.stringify(r.body)}`);
}
const burger = (quantity: string, discount?: string): Line => ({ sku: 'BRG', name: 'Burger', quantity, unitPrice: '12.50', ...(discount ? { discount } : {}) });
const fries = (quantity: string): Line => ({ sku: 'FRY', name: 'Fries', quantity, unitPrice: '4.00' });

beforeAll(async () => {
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-insights-files-'));
  s = await startInsightsStack({ filesDir });
  nyc = s.locations['NYC-1'];
  ber = s.locations['BER-1'];
  people.a = await employee(s, nyc, [{ amount: '20.00' }]);
  people.b = await employee(s, nyc, [{ amount: '18.50' }, { amount: '22.00', position: 'Bar' }]);
  people.c = await employee(s, ber, [{ amount: '15.00' }]);

  await send('pos-insights', [
    // NYC (UTC−5), business day 2026-11-16: 12:00 local 25.00 + 8.00 in store and 10.00 delivered, 18:00 local 6.00 of soda and a 4.00 refund of fries
    ticket('NYC-1', '2026-11-16T17:00:00Z', [burger('2'), fries('2')], { channel: 'in_store' }),
    ticket('NYC-1', '2026-11-16T17:20:00Z', [burger('1', '2.50')], { channel: 'delivery' }),
    ticket('NYC-1', '2026-11-16T23:30:00Z', [{ name: 'Soda', quantity: '2', unitPrice: '3.00' }]),
    ticket('NYC-1', '2026-11-16T23:45:00Z', [fries('-1')], { channel: 'in_store' }),
    // voided below: counts nothing anywhere
    ticket('NYC-1', '2026-11-16T18:00:00Z', [burger('1')], { channel: 'in_store', externalId: 'rep-voided' }),
    // 2026-11-17: 50.00 at 11:00 local
    ticket('NYC-1', '2026-11-17T16:00:00Z', [burger('4')], { channel: 'in_store' }),
    // Berlin (UTC+1), 2026-11-16: 20.00 at 13:00 local
    ticket('BER-1', '2026-11-16T12:00:00Z', [fries('5')], { channel: 'in_store' }),
  ]);
  await send('pos-insights', [ticket('NYC-1', '2026-11-16T18:00:00Z', [burger('1')], { channel: 'in_store', externalId: 'rep-voided', status: 'voided' })]);
  // another system at Berlin: a kiosk, 12.50 at 14:00 local
  await send('kiosk-insights', [ticket('BER-1', '2026-11-16T13:10:00Z', [burger('1')], { channel: 'kiosk' })]);

  await sendPunches(s, [
    // A: 9 h on the 16th and the 17th at NYC (180.00 a day); B: 5 h at the bar on the 16th (110.00); C: 6 h in Berlin (90.00)
    ...shift(people.a, nyc, '2026-11-16T13:00:00Z', '2026-11-16T22:00:00Z'),
    ...shift(people.a, nyc, '2026-11-17T13:00:00Z', '2026-11-17T22:00:00Z'),
    ...shift(people.b, nyc, '2026-11-16T15:00:00Z', '2026-11-16T20:00:00Z', 'Bar'),
    ...shift(people.c, ber, '2026-11-16T08:00:00Z', '2026-11-16T14:00:00Z'),
  ]);
  await recalculate(s);
  // waste: NYC 4 × 2.50 spoiled on the 16th and 2 × 1.00 expired on the 17th; Berlin 3 × 1.25 spoiled on the 17th
  await recordWaste(s, nyc, '2.50', '4', '2026-11-16T18:00:00Z');
  await recordWaste(s, nyc, '1.00', '2', '2026-11-17T18:00:00Z', 'expired');
  await recordWaste(s, ber, '1.25', '3', '2026-11-17T10:00:00Z');
  // NYC's drawer 5.00 short on the 16th, the day closed
  await closeCashDay(s, nyc, '2026-11-16', '2026-11-16T23:50:00Z', '200.00', '195.00');
}, 120_000);

afterAll(async () => {
  await s?.stack.close();
  fs.rmSync(filesDir, { recursive: true, force: true });
});

const WEEK = 'from=2026-11-16&to=2026-11-22';
const report = (key: string, query: string, as = person()) => s.insights.call('GET', `/reports/${key}?${query}`, { as });
const kpis = (query: string, as = person()) => s.insights.call('GET', `/kpis?${query}`, { as });

/** The week's KPIs once the read models hold everything sent (by hand: 127.50 net sales, 560.00 labor, 15.75 waste, −5.00 over/short). */
async function settled(): Promise<HttpResult> {
  return eventually(async () => {
    const r = await kpis(WEEK);
    const f = r.body.figures;
    return r.status === 200 && f.netSales === '127.50' && f.laborCost === '560.00' && f.wasteValue === '15.75' && f.overShort === '-5.00' ? r : undefined;
  }, 20_000);
}

/** Every row of a report, page after page of `limit`. */
async function allRows(key: string, query: string, limit = 200, as = person()): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const r: HttpResult = await report(key, `${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, as);
    expect(r.status).toBe(200);
    rows.push(...r.body.data);
    cursor = r.body.nextCursor;
    expect(r.body.hasMore).toBe(cursor !== null);
  } while (cursor);
  return rows;
}

const sum = (rows: any[], column: string) => rows.reduce((n: Decimal, r) => n.plus(r[column] ?? 0), new Decimal(0)).toFixed(2);

describe('GET /reports', () => {
  it('lists every report with its parameters and columns', async () => {
    const r = await s.insights.call('GET', '/reports');
    expect(r.status).toBe(200);
    expect(r.body.data.map((x: { key: string }) => x.key)).toEqual(['sales-by-day', 'sales-by-hour', 'sales-by-item', 'sales-by-channel', 'labor-vs-sales', 'timesheet-summary', 'over-short', 'waste-by-reason', 'usage-actual-vs-theoretical', 'inventory-valuation', 'purchase-price-variance', 'forecast-accuracy']);
    const labor = r.body.data.find((x: { key: string }) => x.key === 'labor-vs-sales');
    expect(labor.parameters).toEqual([
      { name: 'from', type: 'date', required: true, description: 'first business day (inclusive)' },
      { name: 'to', type: 'date', required: true, description: 'last business day (inclusive)' },
      { name: 'locationId', type: 'list', required: false, description: expect.stringContaining('location ids') },
      { name: 'orgUnitId', type: 'string', required: false, description: expect.stringContaining('org unit') },
    ]);
    expect(labor.columns.find((c: { name: string }) => c.name === 'laborHours')).toMatchObject({ type: 'decimal', unit: 'h' });
    expect(labor.columns.find((c: { name: string }) => c.name === 'laborCost')).toMatchObject({ type: 'money' });
  });
});

describe('GET /reports/{key}', () => {
  it('answers sales by day, hour, item and channel as derived by hand', async () => {
    await settled();
    expect(await allRows('sales-by-day', WEEK)).toEqual(
      [
        { businessDay: '2026-11-16', locationId: nyc, netSales: '45.00', transactions: 3, averageCheck: '15.00' },
        { businessDay: '2026-11-16', locationId: ber, netSales: '32.50', transactions: 2, averageCheck: '16.25' },
        { businessDay: '2026-11-17', locationId: nyc, netSales: '50.00', transactions: 1, averageCheck: '50.00' },
      ].sort((a, b) => (`${a.businessDay}|${a.locationId}` < `${b.businessDay}|${b.locationId}` ? -1 : 1)),
    );
    const hours = await allRows('sales-by-hour', `${WEEK}&locationId=${nyc}`);
    // the voided sale's hour (13:00 local) holds nothing: not listed
    expect(hours).toEqual([
      { businessDay: '2026-11-16', locationId: nyc, hour: '12:00', netSales: '43.00', transactions: 2 },
      { businessDay: '2026-11-16', locationId: nyc, hour: '18:00', netSales: '2.00', transactions: 1 },
      { businessDay: '2026-11-17', locationId: nyc, hour: '11:00', netSales: '50.00', transactions: 1 },
    ]);
    expect(await allRows('sales-by-hour', `${WEEK}&locationId=${ber}`)).toEqual([
      { businessDay: '2026-11-16', locationId: ber, hour: '13:00', netSales: '20.00', transactions: 1 },
      { businessDay: '2026-11-16', locationId: ber, hour: '14:00', netSales: '12.50', transactions: 1 },
    ]);
    expect(await allRows('sales-by-item', `${WEEK}&locationId=${nyc}`)).toEqual([
      { locationId: nyc, itemId: null, item: 'name:Soda', itemName: 'Soda', quantity: '2.00', netSales: '6.00' },
      { locationId: nyc, itemId: null, item: 'sku:BRG', itemName: 'Burger', quantity: '7.00', netSales: '85.00' },
      { locationId: nyc, itemId: null, item: 'sku:FRY', itemName: 'Fries', quantity: '1.00', netSales: '4.00' },
    ]);
    const channels = await allRows('sales-by-channel', WEEK);
    const byChannel = Object.fromEntries(channels.map((c) => [`${c.locationId === nyc ? 'NYC' : 'BER'} ${c.channel} ${c.source}`, `${c.netSales} ${c.transactions}`]));
    expect(byChannel).toEqual({
      'NYC in_store pos-insights': '79.00 2',
      'NYC delivery pos-insights': '10.00 1',
      'NYC null pos-insights': '6.00 1',
      'BER in_store pos-insights': '20.00 1',
      'BER kiosk kiosk-insights': '12.50 1',
    });
  });

  it('answers labor vs sales, timesheets, over/short and waste as derived by hand', async () => {
    await settled();
    const labor = await allRows('labor-vs-sales', WEEK);
    const at = (day: string, loc: string) => labor.find((r) => r.businessDay === day && r.locationId === loc);
    // NYC 16th: A 9 h × 20 + B 5 h × 22 = 290.00 over 14 h; 290 ÷ 45 × 100 = 644.44…; 45 ÷ 14 = 3.214…
    expect(at('2026-11-16', nyc)).toEqual({ businessDay: '2026-11-16', locationId: nyc, netSales: '45.00', laborHours: '14.00', laborCost: '290.00', laborPercent: '644.44', salesPerLaborHour: '3.21', scheduledHours: '0.00', scheduledCost: '0.00', scheduledLaborPercent: '0.00' });
    // Berlin 16th: 6 h × 15 = 90.00; 90 ÷ 32.50 × 100 = 276.92…; 32.50 ÷ 6 = 5.416…
    expect(at('2026-11-16', ber)).toMatchObject({ netSales: '32.50', laborHours: '6.00', laborCost: '90.00', laborPercent: '276.92', salesPerLaborHour: '5.42' });
    expect(at('2026-11-17', nyc)).toMatchObject({ netSales: '50.00', laborHours: '9.00', laborCost: '180.00', laborPercent: '360.00', salesPerLaborHour: '5.56' });
    expect(labor).toHaveLength(3);

    const sheets = await allRows('timesheet-summary', WEEK);
    const of = (id: string) => sheets.filter((r) => r.employeeId === id);
    expect(of(people.a)).toEqual([expect.objectContaining({ days: 2, regularHours: '18.00', overtimeHours: '0.00', paidHours: '18.00', laborCost: '360.00' })]);
    expect(of(people.b)).toEqual([expect.objectContaining({ position: 'Bar', days: 1, regularHours: '5.00', paidHours: '5.00', laborCost: '110.00' })]);
    expect(of(people.c)).toEqual([expect.objectContaining({ days: 1, paidHours: '6.00', laborCost: '90.00' })]);
    expect(of(people.a)[0].employeeName).toMatch(/^Ana Silva-/);

    expect(await allRows('over-short', WEEK)).toEqual([{ businessDay: '2026-11-16', locationId: nyc, overShort: '-5.00', closedAt: expect.any(String) }]);
    const waste = await allRows('waste-by-reason', WEEK);
    expect(waste.map((w) => `${w.locationId === nyc ? 'NYC' : 'BER'} ${w.reason} ${w.records} ${w.wasteValue}`).sort()).toEqual(['BER spoiled 1 3.75', 'NYC expired 1 2.00', 'NYC spoiled 1 10.00']);
  });

  it('adds up, report by report, to what GET /kpis answers for the same scope', async () => {
    const k = (await settled()).body.figures;
    for (const scope of [WEEK, `${WEEK}&locationId=${nyc}`, `from=2026-11-17&to=2026-11-17`]) {
      const f = (await kpis(scope)).body.figures;
      const day = await allRows('sales-by-day', scope);
      expect([sum(day, 'netSales'), day.reduce((n, r) => n + r.transactions, 0)]).toEqual([f.netSales, f.transactions]);
      const hour = await allRows('sales-by-hour', scope);
      expect([sum(hour, 'netSales'), hour.reduce((n, r) => n + r.transactions, 0)]).toEqual([f.netSales, f.transactions]);
      expect(sum(await allRows('sales-by-item', scope), 'netSales')).toBe(f.netSales);
      const channel = await allRows('sales-by-channel', scope);
      expect([sum(channel, 'netSales'), channel.reduce((n, r) => n + r.transactions, 0)]).toEqual([f.netSales, f.transactions]);
      const labor = await allRows('labor-vs-sales', scope);
      expect([sum(labor, 'netSales'), sum(labor, 'laborHours'), sum(labor, 'laborCost'), sum(labor, 'scheduledHours'), sum(labor, 'scheduledCost')]).toEqual([f.netSales, f.laborHours, f.laborCost, f.scheduledHours, f.scheduledCost]);
      const sheets = await allRows('timesheet-summary', scope);
      expect([sum(sheets, 'paidHours'), sum(sheets, 'laborCost')]).toEqual([f.laborHours, f.laborCost]);
      expect(sum(await allRows('over-short', scope), 'overShort')).toBe(f.overShort);
      expect(sum(await allRows('waste-by-reason', scope), 'wasteValue')).toBe(f.wasteValue);
    }
    expect(k.netSales).toBe('127.50');
  });

  it('gives each labor-vs-sales row exactly the KPIs of its location and day', async () => {
    await settled();
    for (const row of await allRows('labor-vs-sales', WEEK)) {
      const f = (await kpis(`from=${row.businessDay}&to=${row.businessDay}&locationId=${row.locationId}`)).body.figures;
      expect(row).toEqual({ businessDay: row.businessDay, locationId: row.locationId, netSales: f.netSales, laborHours: f.laborHours, laborCost: f.laborCost, laborPercent: f.laborPercent, salesPerLaborHour: f.salesPerLaborHour, scheduledHours: f.scheduledHours, scheduledCost: f.scheduledCost, scheduledLaborPercent: f.scheduledLaborPercent });
    }
  });

  it('pages with a cursor: small pages give the same rows, in order, once each', async () => {
    await settled();
    const whole = await allRows('sales-by-hour', WEEK, 200);
    expect(whole).toHaveLength(5);
    expect(await allRows('sales-by-hour', WEEK, 2)).toEqual(whole);
    expect(await allRows('sales-by-channel', WEEK, 1)).toEqual(await allRows('sales-by-channel', WEEK));
    // labor vs sales sums only the days of each page: pages of 1 and 2 rows give the rows of the whole range
    const labor = await allRows('labor-vs-sales', WEEK, 200);
    expect(labor).toHaveLength(3);
    expect(await allRows('labor-vs-sales', WEEK, 1)).toEqual(labor);
    expect(await allRows('labor-vs-sales', WEEK, 2)).toEqual(labor);
    const bad = await report('sales-by-day', `${WEEK}&cursor=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('cursor');
  });

  it('refuses an unknown report (404) and bad parameters with the field named (400)', async () => {
    const unknown = await report('nope', WEEK);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    const missing = await report('sales-by-day', 'from=2026-11-16');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { path: string }) => e.path)).toContain('to');
    const backwards = await report('labor-vs-sales', 'from=2026-11-22&to=2026-11-16');
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors.map((e: { path: string }) => e.path)).toEqual(['to']);
    const notADate = await report('labor-vs-sales', 'from=16.11.2026&to=2026-11-22');
    expect(notADate.body.errors.map((e: { path: string }) => e.path)).toEqual(['from']);
    const extra = await report('over-short', `${WEEK}&colour=red`);
    expect(extra.status).toBe(400);
    expect(extra.body.errors.map((e: { path: string }) => e.path)).toEqual(['colour']);
    const unknownLocation = await report('over-short', `${WEEK}&locationId=loc_nope`);
    expect(unknownLocation.status).toBe(400);
    expect(unknownLocation.body.errors.map((e: { path: string }) => e.path)).toEqual(['locationId']);
  });

  it('counts only the locations within reach, refuses one outside it, and needs reports.read', async () => {
    await settled();
    const nycOnly = person({ 'reports.read': [{ type: 'locations', ids: [nyc] }] });
    const mine = await report('sales-by-day', WEEK, nycOnly);
    expect(mine.status).toBe(200);
    expect(mine.body.locationIds).toEqual([nyc]);
    expect(mine.body.data.every((r: { locationId: string }) => r.locationId === nyc)).toBe(true);
    const outside = await report('sales-by-day', `${WEEK}&locationId=${ber}`, nycOnly);
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe('out_of_reach');
    const refused = await report('sales-by-day', WEEK, person({ 'sales.read': [{ type: 'everyone' }] }));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    expect((await s.insights.call('GET', '/reports', { as: person({ 'sales.read': [{ type: 'everyone' }] }) })).status).toBe(403);
    const key = await report('sales-by-day', WEEK, integration(['reports:read']));
    expect(key.status).toBe(200);
    expect(key.body.data).toHaveLength(3);
  });
});

/** A tiny RFC 4180 reader (quoted fields, CRLF), enough for the exports' text. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endCell();
    else if (c === '\r' && text[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    endCell();
    rows.push(row);
  }
  return rows;
}

describe('report exports', () => {
  const exporter = person(undefined, { id: 'usr_exporter', userId: 'usr_exporter' });
  const create = (body: unknown, as = exporter) => s.insights.call('POST', '/report-exports', { as, body });
  const worker = () => s.insights.svc.worker('report-exports');
  async function download(attachmentId: string, as = exporter): Promise<Response> {
    const files = s.stack.services.files;
    return fetch(`${files.svc.url}/attachments/${attachmentId}/content`, { headers: { 'x-internal-token': await (await testKeys()).signer.sign(as) } });
  }
  /** A report's rows as the file shows them: every value as text, null empty. */
  const asText = (rows: any[], columns: string[]) => rows.map((r) => columns.map((c) => (r[c] === null ? '' : String(r[c]))));

  it('runs a CSV export in the background, stores it at files, and the file equals the report', async () => {
    await settled();
    const queued = await create({ report: 'labor-vs-sales', format: 'csv', parameters: { from: '2026-11-16', to: '2026-11-22' } });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ report: 'labor-vs-sales', format: 'csv', status: 'queued', downloadUrl: null, locationIds: [nyc, ber].sort() });
    expect(queued.headers.get('location')).toBe(`/api/v1/report-exports/${queued.body.id}`);
    expect(await worker().runOnce()).toBe(true);
    const done = await s.insights.call('GET', `/report-exports/${queued.body.id}`, { as: exporter });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'completed', rows: 3, fileName: 'labor-vs-sales_2026-11-16_2026-11-22.csv', error: null });
    expect(done.body.downloadUrl).toBe(`/api/v1/attachments/${done.body.attachmentId}/content`);

    const file = await download(done.body.attachmentId);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...lines] = parseCsv(await file.text());
    const run = await report('labor-vs-sales', WEEK);
    const columns = run.body.columns.map((c: { name: string }) => c.name);
    expect(header).toEqual(columns);
    expect(lines).toEqual(asText(run.body.data, columns));
    // someone else who may not see every location of it: as if it did not exist
    const other = person({ 'reports.export': [{ type: 'locations', ids: [nyc] }] }, { id: 'usr_other', userId: 'usr_other' });
    expect((await s.insights.call('GET', `/report-exports/${queued.body.id}`, { as: other })).status).toBe(404);
    expect((await download(done.body.attachmentId, other)).status).toBe(404);
    // a holder of reports.export reaching everyone sees it
    expect((await s.insights.call('GET', `/report-exports/${queued.body.id}`, { as: person() })).status).toBe(200);
    expect(await worker().runOnce()).toBe(false);
  });

  it('runs an XLSX export that exceljs reads back equal to the report', async () => {
    await settled();
    const queued = await create({ report: 'sales-by-item', format: 'xlsx', parameters: { from: '2026-11-16', to: '2026-11-22', locationId: nyc } });
    expect(queued.status).toBe(202);
    expect(queued.body.locationIds).toEqual([nyc]);
    await worker().runOnce();
    const done = await s.insights.call('GET', `/report-exports/${queued.body.id}`, { as: exporter });
    expect(done.body).toMatchObject({ status: 'completed', rows: 3, fileName: 'sales-by-item_2026-11-16_2026-11-22.xlsx' });
    const file = await download(done.body.attachmentId);
    expect(file.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await file.arrayBuffer()) as any);
    const sheet = book.worksheets[0];
    const run = await report('sales-by-item', `${WEEK}&locationId=${nyc}`);
    const columns: Array<{ name: string; type: string }> = run.body.columns;
    const values: unknown[][] = [];
    sheet.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
    expect(values[0]).toEqual(columns.map((c) => c.name));
    const read = values.slice(1).map((cells) => Object.fromEntries(columns.map((c, i) => {
      const v = cells[i];
      if (v === undefined || v === null) return [c.name, null];
      return [c.name, c.type === 'money' || c.type === 'decimal' ? new Decimal(v as number).toFixed(2) : v];
    })));
    expect(read).toEqual(run.body.data);
  });

  it('refuses an unknown report or bad parameters (422 with the field), a location out of reach, and a caller without reports.export', async () => {
    const unknown = await create({ report: 'nope', format: 'csv', parameters: { from: '2026-11-16', to: '2026-11-22' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.map((e: { path: string }) => e.path)).toEqual(['report']);
    const bad = await create({ report: 'sales-by-day', format: 'csv', parameters: { from: '2026-11-22', to: '2026-11-16' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['parameters.to']);
    const format = await create({ report: 'sales-by-day', format: 'pdf', parameters: { from: '2026-11-16', to: '2026-11-22' } });
    expect(format.status).toBe(422);
    expect(format.body.errors.map((e: { path: string }) => e.path)).toEqual(['format']);
    const nycOnly = person({ 'reports.export': [{ type: 'locations', ids: [nyc] }] });
    const outside = await create({ report: 'sales-by-day', format: 'csv', parameters: { from: '2026-11-16', to: '2026-11-22', locationId: ber } }, nycOnly);
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe('out_of_reach');
    const readOnly = person({ 'reports.read': [{ type: 'everyone' }] });
    expect((await create({ report: 'sales-by-day', format: 'csv', parameters: { from: '2026-11-16', to: '2026-11-22' } }, readOnly)).status).toBe(403);
    expect((await s.insights.call('GET', '/report-exports/rex_nope', { as: exporter })).status).toBe(404);
    // nothing was queued by the refusals
    expect(await worker().runOnce()).toBe(false);
  });

  it('lets an integration key with reports:read export and read its export', async () => {
    await settled();
    const key = integration(['reports:read', 'attachments:read'], { id: 'int_reports', integrationId: 'int_reports' });
    const queued = await create({ report: 'over-short', format: 'csv', parameters: { from: '2026-11-16', to: '2026-11-22' } }, key);
    expect(queued.status).toBe(202);
    await worker().runOnce();
    const done = await s.insights.call('GET', `/report-exports/${queued.body.id}`, { as: key });
    expect(done.body.status).toBe('completed');
    const file = await download(done.body.attachmentId, key);
    expect(file.status).toBe(200);
    const [header, ...lines] = parseCsv(await file.text());
    expect(header).toEqual(['businessDay', 'locationId', 'overShort', 'closedAt']);
    expect(lines.map((l) => l.slice(0, 3))).toEqual([['2026-11-16', nyc, '-5.00']]);
  });
});
