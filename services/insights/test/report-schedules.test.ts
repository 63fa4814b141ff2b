/**
 * Scheduled reports (the project's own addition): a schedule runs its report for each past day, week
 * or month once the period is over — its export queued by the `report-schedules` worker, stored by the
 * `report-exports` worker — and its recipients are e-mailed the download link through the internal
 * event `insights.email.requested` (identity sends it). Time is moved by hand.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeClock, eventually, integration, outboxPayloads, person } from '@bop/test-support';
import { periodAfter, periodHolding, runAt } from '../src/reports/schedule-periods';
import { sale, sendSales, startInsightsStack, type InsightsStack } from './fixtures';

let s: InsightsStack;
let ber: string;
let nyc: string;
let filesDir: string;
const clock = new FakeClock();
// Monday 4 January 2027, 10:00 UTC
clock.advanceTo('2027-01-04T10:00:00Z');

beforeAll(async () => {
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-insights-schedules-'));
  s = await startInsightsStack({ filesDir, clock });
  ber = s.locations['BER-1'];
  nyc = s.locations['NYC-1'];
  // Berlin (UTC+1), business day 2027-01-04: 20.00 and 12.50
  await sendSales(s, [sale('BER-1', '2027-01-04T08:00:00Z', '20.00'), sale('BER-1', '2027-01-04T09:00:00Z', '12.50')]);
}, 120_000);

afterAll(async () => {
  await s?.stack.close();
  fs.rmSync(filesDir, { recursive: true, force: true });
});

const planner = person(undefined, { id: 'usr_planner', userId: 'usr_planner' });
const schedule = (body: unknown, as = planner) => s.insights.call('POST', '/report-schedules', { as, body });
const queueWorker = () => s.insights.svc.worker('report-schedules');
const exportWorker = () => s.insights.svc.worker('report-exports');

describe('periods', () => {
  it('a day, a Monday-to-Sunday week, a calendar month; run 12 hours after the period ends (UTC)', () => {
    expect(periodHolding('daily', '2027-01-04')).toEqual({ from: '2027-01-04', to: '2027-01-04' });
    expect(periodHolding('weekly', '2027-01-06')).toEqual({ from: '2027-01-04', to: '2027-01-10' });
    expect(periodHolding('monthly', '2028-02-10')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(periodAfter('monthly', { to: '2027-01-31' })).toEqual({ from: '2027-02-01', to: '2027-02-28' });
    expect(periodAfter('weekly', { to: '2027-01-10' })).toEqual({ from: '2027-01-11', to: '2027-01-17' });
    expect(runAt({ to: '2027-01-04' }).toISOString()).toBe('2027-01-05T12:00:00.000Z');
  });
});

describe('report schedules', () => {
  it('runs a daily report once the day is over and e-mails its recipients the download link', async () => {
    const created = await schedule({ report: 'sales-by-day', format: 'csv', every: 'daily', recipients: ['ops@example.com', 'GM@example.com'], parameters: { locationId: ber } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      report: 'sales-by-day', every: 'daily', format: 'csv', recipients: ['ops@example.com', 'gm@example.com'], parameters: { locationId: ber }, locationIds: [ber],
      status: 'active', nextPeriod: { from: '2027-01-04', to: '2027-01-04' }, nextRunAt: '2027-01-05T12:00:00.000Z', lastExportId: null,
    });
    // the day is not over: nothing is due
    expect(await queueWorker().runOnce()).toBe(false);
    await eventually(async () => (await s.insights.call('GET', `/reports/sales-by-day?from=2027-01-04&to=2027-01-04&locationId=${ber}`)).body.data[0]?.netSales === '32.50');

    clock.advanceTo('2027-01-05T12:00:00Z');
    expect(await queueWorker().runOnce()).toBe(true);
    expect(await queueWorker().runOnce()).toBe(false);
    const [mine] = (await s.insights.call('GET', '/report-schedules', { as: planner })).body.data;
    expect(mine).toMatchObject({ id: created.body.id, nextPeriod: { from: '2027-01-05', to: '2027-01-05' }, nextRunAt: '2027-01-06T12:00:00.000Z', lastExportId: expect.any(String) });
    const queued = await s.insights.call('GET', `/report-exports/${mine.lastExportId}`, { as: planner });
    expect(queued.body).toMatchObject({ report: 'sales-by-day', status: 'queued', parameters: { locationId: ber, from: '2027-01-04', to: '2027-01-04' } });

    expect(await exportWorker().runOnce()).toBe(true);
    const done = await s.insights.call('GET', `/report-exports/${mine.lastExportId}`, { as: planner });
    expect(done.body).toMatchObject({ status: 'completed', rows: 1 });
    const mails = await outboxPayloads(s.insights, 'insights', { type: 'insights.email.requested' });
    // one email per recipient, as identity's email-requests consumer takes them
    expect(mails.map((m) => m.data.object)).toEqual(
      ['ops@example.com', 'gm@example.com'].map((to) => ({
        to,
        subject: 'Sales by day for 2027-01-04',
        body: expect.stringContaining(`Download: /api/v1/attachments/${done.body.attachmentId}/content`),
      })),
    );
    // the file is the scheduler's: they download it
    const file = await fetch(`${s.stack.services.files.svc.url}/attachments/${done.body.attachmentId}/content`, { headers: { 'x-internal-token': await (await (await import('@bop/test-support')).testKeys()).signer.sign(planner) } });
    expect(file.status).toBe(200);
    expect((await file.text()).split('\r\n')[1]).toBe(`2027-01-04,${ber},32.50,2,16.25`);
  });

  it('sets a weekly and a monthly schedule to their period; a stopped schedule runs no more', async () => {
    const weekly = await schedule({ report: 'labor-vs-sales', format: 'xlsx', every: 'weekly', recipients: ['ops@example.com'] });
    expect(weekly.body).toMatchObject({ nextPeriod: { from: '2027-01-04', to: '2027-01-10' }, nextRunAt: '2027-01-11T12:00:00.000Z', locationIds: [nyc, ber].sort() });
    const monthly = await schedule({ report: 'over-short', format: 'csv', every: 'monthly', recipients: ['ops@example.com'] });
    expect(monthly.body).toMatchObject({ nextPeriod: { from: '2027-01-01', to: '2027-01-31' }, nextRunAt: '2027-02-01T12:00:00.000Z' });

    const daily = (await s.insights.call('GET', '/report-schedules', { as: planner })).body.data.find((x: { every: string }) => x.every === 'daily');
    expect((await s.insights.call('DELETE', `/report-schedules/${daily.id}`, { as: planner })).status).toBe(204);
    expect((await s.insights.call('DELETE', `/report-schedules/${daily.id}`, { as: planner })).status).toBe(204);
    clock.advanceTo('2027-01-06T12:00:00Z');
    expect(await queueWorker().runOnce()).toBe(false);
    const after = (await s.insights.call('GET', '/report-schedules', { as: planner })).body.data.find((x: { id: string }) => x.id === daily.id);
    expect(after).toMatchObject({ status: 'stopped', nextRunAt: '2027-01-06T12:00:00.000Z' });
    // report_schedule.created and, once, report_schedule.stopped (the project's types): the schedule as the list shows it
    const events = (await outboxPayloads(s.insights, 'insights', { aggregateId: daily.id })).filter((e) => e.type.startsWith('report_schedule.'));
    expect(events.map((e) => [e.type, e.data.object.id, e.data.object.status])).toEqual([
      ['report_schedule.created', daily.id, 'active'],
      ['report_schedule.stopped', daily.id, 'stopped'],
    ]);
    expect(events[1]).toMatchObject({ locationId: null, data: { object: after, previous: { status: 'active' } } });
    expect((await outboxPayloads(s.insights, 'insights', { type: 'report_schedule.created', aggregateId: weekly.body.id }))[0].data.object).toEqual(weekly.body);
  });

  it('refuses bad input with the field, a location out of reach, and a caller without reports.export', async () => {
    const unknown = await schedule({ report: 'nope', format: 'csv', every: 'daily', recipients: ['a@example.com'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.map((e: { path: string }) => e.path)).toEqual(['report']);
    const period = await schedule({ report: 'sales-by-day', format: 'csv', every: 'daily', recipients: ['a@example.com'], parameters: { from: '2027-01-01' } });
    expect(period.status).toBe(422);
    expect(period.body.errors.map((e: { path: string }) => e.path)).toEqual(['parameters.from']);
    const badParam = await schedule({ report: 'sales-by-day', format: 'csv', every: 'daily', recipients: ['a@example.com'], parameters: { colour: 'red' } });
    expect(badParam.body.errors.map((e: { path: string }) => e.path)).toEqual(['parameters.colour']);
    const badMail = await schedule({ report: 'sales-by-day', format: 'csv', every: 'hourly', recipients: ['not an address'] });
    expect(badMail.status).toBe(422);
    expect(badMail.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['every', 'recipients[0]']);
    const nobody = await schedule({ report: 'sales-by-day', format: 'csv', every: 'daily', recipients: [] });
    expect(nobody.body.errors.map((e: { path: string }) => e.path)).toEqual(['recipients']);

    const berOnly = person({ 'reports.export': [{ type: 'locations', ids: [ber] }] }, { id: 'usr_ber', userId: 'usr_ber' });
    const outside = await schedule({ report: 'sales-by-day', format: 'csv', every: 'daily', recipients: ['a@example.com'], parameters: { locationId: nyc } }, berOnly);
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe('out_of_reach');
    // theirs only; another's schedule is not found for them
    expect((await s.insights.call('GET', '/report-schedules', { as: berOnly })).body.data).toEqual([]);
    const someone = (await s.insights.call('GET', '/report-schedules', { as: planner })).body.data.find((x: { every: string }) => x.every === 'weekly');
    expect((await s.insights.call('DELETE', `/report-schedules/${someone.id}`, { as: berOnly })).status).toBe(404);
    expect((await s.insights.call('DELETE', '/report-schedules/rsc_nope', { as: planner })).status).toBe(404);

    const readOnly = person({ 'reports.read': [{ type: 'everyone' }] });
    expect((await schedule({ report: 'sales-by-day', format: 'csv', every: 'daily', recipients: ['a@example.com'] }, readOnly)).status).toBe(403);
    expect((await s.insights.call('GET', '/report-schedules', { as: readOnly })).status).toBe(403);
    // a key needs reports:write to schedule (the catalogue row), reports:read to list; its reach is everyone: it lists them all
    const key = integration(['reports:write', 'reports:read'], { id: 'int_sched', integrationId: 'int_sched' });
    expect((await schedule({ report: 'over-short', format: 'csv', every: 'monthly', recipients: ['a@example.com'] }, key)).status).toBe(201);
    expect((await s.insights.call('GET', '/report-schedules', { as: key })).body.data).toHaveLength(4);
  });
});
