/**
 * Insights in the all-in-one runtime, through the gateway: a POS key sends sales and a timeclock key
 * punches, people's rates price them, and `GET /kpis` answers the net sales, labor and SPLH a few
 * moments later — every service wired as `npm start` wires it, over the real bus.
 */
import { eventually, http, startTestRuntime, type TestRuntime } from '@bop/test-support';

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime({ STORAGE_S3_BUCKET: '', TIME_TIMESHEET_POLL_MS: '200' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const api = (method: string, p: string, body?: unknown, headers = t.owner) => http(t.rt.url, method, `/api/v1${p}`, { body, headers });

async function key(name: string, scopes: string[]): Promise<Record<string, string>> {
  const r = await api('POST', '/integrations', { manifest: { name, version: '1.0.0', description: name, scopes, webhooks: [] } });
  expect(r.status).toBe(201);
  return { authorization: `Bearer ${r.body.apiKey}` };
}

it('answers the KPIs of sales and punches sent a moment ago', async () => {
  const loc = await api('POST', '/locations', { name: 'Harbour', timezone: 'America/New_York', businessDayCutoff: '04:00', externalId: 'HB-1' });
  expect(loc.status).toBe(201);
  const emp = await api('POST', '/employees', { legalFirstName: 'Ana', legalLastName: 'Silva', homeLocationId: loc.body.id, hireDate: '2026-01-05' });
  expect(emp.status).toBe(201);
  expect((await api('POST', `/employees/${emp.body.id}/pay-rates`, { type: 'hourly', amount: '17.25', position: null, effectiveDate: '2026-01-01' })).status).toBe(201);

  const pos = await key('Harbour POS', ['sales:write', 'sales:read']);
  const clock = await key('Harbour clock', ['time:write', 'time:read']);
  const reports = await key('Harbour reports', ['reports:read']);

  const sale = (externalId: string, occurredAt: string, amount: string) => ({
    externalId, locationExternalId: 'HB-1', occurredAt, lines: [{ name: 'Chowder', quantity: '1', unitPrice: amount }],
    tenders: [{ type: 'card', amount }], subtotal: amount, tax: '0.00', total: amount, currency: 'USD',
  });
  const batch = await api('POST', '/sales/transactions:batch', { source: 'harbour-pos', transactions: [sale('h-1', '2026-11-16T17:00:00Z', '612.40'), sale('h-2', '2026-11-16T19:30:00Z', '287.60')] }, pos);
  expect(batch.status).toBe(202);
  expect(batch.body.rejected).toBe(0);
  const punches = await api('POST', '/time/punches:batch', {
    source: 'harbour-clock',
    punches: [
      { externalId: 'p-in', employeeId: emp.body.id, locationId: loc.body.id, type: 'clock_in', occurredAt: '2026-11-16T15:00:00Z' },
      { externalId: 'p-out', employeeId: emp.body.id, locationId: loc.body.id, type: 'clock_out', occurredAt: '2026-11-16T23:00:00Z' },
    ],
  }, clock);
  expect(punches.status).toBe(202);
  expect(punches.body.rejected).toBe(0);

  // by hand: 612.40 + 287.60 = 900.00 net; 8 h × 17.25 = 138.00; 15.33 %; 112.50 an hour
  const answer = await eventually(async () => {
    const r = await api('GET', `/kpis?from=2026-11-16&to=2026-11-16&locationId=${loc.body.id}`, undefined, reports);
    return r.status === 200 && r.body.figures.netSales === '900.00' && r.body.figures.laborCost === '138.00' ? r : undefined;
  }, 30_000);
  expect(answer.body.figures).toMatchObject({ netSales: '900.00', transactions: 2, laborHours: '8.00', laborCost: '138.00', laborPercent: '15.33', salesPerLaborHour: '112.50' });

  // the same day as a report, then exported to CSV by the export worker, stored at files and downloaded through the gateway
  const day = `from=2026-11-16&to=2026-11-16&locationId=${loc.body.id}`;
  const report = await api('GET', `/reports/labor-vs-sales?${day}`, undefined, reports);
  expect(report.status).toBe(200);
  expect(report.body.data).toEqual([expect.objectContaining({ businessDay: '2026-11-16', netSales: '900.00', laborCost: '138.00', laborPercent: '15.33', salesPerLaborHour: '112.50' })]);
  const exporter = await key('Harbour exports', ['reports:read', 'attachments:read']);
  const queued = await api('POST', '/report-exports', { report: 'labor-vs-sales', format: 'csv', parameters: { from: '2026-11-16', to: '2026-11-16', locationId: loc.body.id } }, exporter);
  expect(queued.status).toBe(202);
  const done = await eventually(async () => {
    const r = await api('GET', `/report-exports/${queued.body.id}`, undefined, exporter);
    return r.body.status === 'completed' || r.body.status === 'failed' ? r : undefined;
  }, 30_000);
  expect(done.body).toMatchObject({ status: 'completed', rows: 1, error: null });
  const file = await fetch(`${t.rt.url}${done.body.downloadUrl}`, { headers: exporter });
  expect(file.status).toBe(200);
  const lines = (await file.text()).trim().split('\r\n');
  expect(lines[0]).toBe(report.body.columns.map((c: { name: string }) => c.name).join(','));
  expect(lines[1]).toBe(`2026-11-16,${loc.body.id},900.00,8.00,138.00,15.33,112.50,0.00,0.00,0.00`);
});
