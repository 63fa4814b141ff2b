/**
 * Alert rules and alerts: the endpoints (authentication, permission, scope of a key, reach, bad input
 * with field paths, If-Match, archive), and the rules evaluated as the real read models move: sales
 * sent through sales' API, applied by insights' consumer over the real bus, evaluated by running the
 * alert worker's round (a moved clock, no sleeping) — once per crossing, re-armed when the condition
 * stops holding, and again when the window rolls over to a new business day. A key's scope and the
 * feature switch are the gateway's: test/access.test.ts walks these rows through it.
 */
import { organizationService } from '@svc/organization';
import { salesService } from '@svc/sales';
import { eventually, FakeClock, http, integration, outboxPayloads, person, serviceSql, standardLocations, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { insightsService } from '../src';
import { sale, unique } from './fixtures';

const clock = new FakeClock();
let stack: TestServices;
let insights: TestService;
let nyc: string;
let ber: string;

const pos = integration(['sales:write', 'sales:read']);

beforeAll(async () => {
  // Tuesday 1 December 2026, 10:00 in New York (business day 2026-12-01), 16:00 in Berlin
  clock.advanceTo('2026-12-01T15:00:00Z');
  stack = await startTestServices([organizationService, salesService, insightsService], {}, { workers: false, clock });
  insights = stack.services.insights;
  const locations = await standardLocations(stack, ['sales', 'insights']);
  nyc = locations['NYC-1'];
  ber = locations['BER-1'];
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

async function sendSales(transactions: unknown[]): Promise<void> {
  const r = await stack.services.sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source: 'pos-alerts', transactions } });
  if (r.status !== 202 || r.body.rejected > 0) throw new Error(`sales batch: ${r.status} ${JSON.stringify(r.body)}`);
}

/** Waits until insights' read model holds the day's net sales (its consumer follows the bus). */
async function netSalesAt(locationId: string, day: string, expected: string): Promise<void> {
  await eventually(async () => {
    const r = await insights.call('GET', `/kpis?from=${day}&to=${day}&locationId=${locationId}`);
    return r.status === 200 && r.body.figures.netSales === expected;
  }, 20_000);
}

const evaluate = () => insights.svc.worker('alert-evaluation').runOnce();
const alertsOf = async (ruleId: string) => (await insights.call('GET', `/alerts?ruleId=${ruleId}&limit=100`)).body.data as Array<Record<string, unknown>>;
const paths = (body: { errors?: Array<{ path: string }> }) => (body.errors ?? []).map((e) => e.path).sort();

const rule = (over: Record<string, unknown> = {}) => ({
  name: unique('rule'),
  kpi: 'netSales',
  scope: { locationIds: [nyc] },
  comparison: { operator: 'above', threshold: '1000' },
  window: { kind: 'today' },
  ...over,
});

describe('firing once per crossing', () => {
  let perLocation: string;
  let whole: string;

  it('fires when the condition becomes true, not again while it holds, re-arms when it stops, and fires again', async () => {
    const a = await insights.call('POST', '/alert-rules', { body: rule() });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ kpi: 'netSales', locationIds: [nyc], status: 'active', version: 1, firing: [], scope: { locationIds: [nyc], orgUnitId: null, evaluate: 'each_location' }, comparison: { operator: 'above', threshold: '1000', against: 'value' }, window: { kind: 'today', days: null } });
    perLocation = a.body.id;
    const b = await insights.call('POST', '/alert-rules', { body: rule({ scope: { locationIds: [nyc, ber], evaluate: 'whole_scope' }, comparison: { operator: 'above', threshold: '1500' } }) });
    expect(b.status).toBe(201);
    whole = b.body.id;

    await sendSales([sale('NYC-1', '2026-12-01T14:00:00Z', '600.00')]);
    await netSalesAt(nyc, '2026-12-01', '600.00');
    await evaluate();
    expect(await alertsOf(perLocation)).toEqual([]);

    // 1,100.00: above 1,000
    await sendSales([sale('NYC-1', '2026-12-01T14:10:00Z', '500.00')]);
    await netSalesAt(nyc, '2026-12-01', '1100.00');
    await evaluate();
    const first = await alertsOf(perLocation);
    expect(first).toEqual([
      expect.objectContaining({ ruleId: perLocation, kpi: 'netSales', locationId: nyc, locationIds: [nyc], operator: 'above', against: 'value', value: '1100.00', kpiValue: '1100.00', threshold: '1000', baseValue: null, from: '2026-12-01', to: '2026-12-01' }),
    ]);
    expect((await insights.call('GET', `/alert-rules/${perLocation}`)).body.firing).toEqual([{ locationId: nyc, since: expect.any(String) }]);
    // the whole scope (1,100.00 of 1,500) has not crossed
    expect(await alertsOf(whole)).toEqual([]);

    // a burst of writes while it holds: each pair marked once, evaluated once, no new firing
    await sendSales([sale('NYC-1', '2026-12-01T14:20:00Z', '100.00')]);
    await sendSales([sale('NYC-1', '2026-12-01T14:21:00Z', '100.00')]);
    await sendSales([sale('NYC-1', '2026-12-01T14:22:00Z', '100.00'), sale('BER-1', '2026-12-01T10:00:00Z', '300.00')]);
    await netSalesAt(nyc, '2026-12-01', '1400.00');
    await netSalesAt(ber, '2026-12-01', '300.00');
    const marked = await serviceSql(insights)(`select rule_id, location_key from insights.alert_dirty where rule_id in (?, ?) order by rule_id, location_key`, [perLocation, whole]);
    expect(marked.map((m: { rule_id: string; location_key: string }) => `${m.rule_id}|${m.location_key}`)).toEqual([`${perLocation}|${nyc}`, `${whole}|*`].sort());
    await evaluate();
    expect(await alertsOf(perLocation)).toHaveLength(1);
    // the whole scope: 1,400.00 + 300.00 = 1,700.00 crossed 1,500: one firing for the scope
    expect(await alertsOf(whole)).toEqual([expect.objectContaining({ locationId: null, locationIds: [nyc, ber].sort(), value: '1700.00', threshold: '1500' })]);
    expect((await serviceSql(insights)(`select 1 from insights.alert_dirty`)).length).toBe(0);

    // a refund takes it below 1,000: re-armed, nothing fired
    await sendSales([sale('NYC-1', '2026-12-01T14:30:00Z', '-500.00')]);
    await netSalesAt(nyc, '2026-12-01', '900.00');
    await evaluate();
    expect(await alertsOf(perLocation)).toHaveLength(1);
    expect((await insights.call('GET', `/alert-rules/${perLocation}`)).body.firing).toEqual([]);

    // above again: a second firing
    await sendSales([sale('NYC-1', '2026-12-01T14:40:00Z', '250.00')]);
    await netSalesAt(nyc, '2026-12-01', '1150.00');
    await evaluate();
    const second = await alertsOf(perLocation);
    expect(second.map((x) => x.value)).toEqual(['1100.00', '1150.00']);

    // each firing is an `alert.triggered` event with the alert as its object
    const events = await serviceSql(insights)(`select payload from insights.outbox where type = 'alert.triggered' order by seq`);
    const objects = events.map((e: { payload: any }) => (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload).data.object);
    expect(objects.filter((o: { ruleId: string }) => o.ruleId === perLocation).map((o: { id: string }) => o.id)).toEqual(second.map((x) => x.id));
  });

  it('evaluates the window anew when a new business day begins (the clock moved, no write)', async () => {
    await evaluate();
    expect((await insights.call('GET', `/alert-rules/${perLocation}`)).body.firing).toHaveLength(1);
    // 08:59 in New York is still 2026-12-01 (cut-off 04:00): nothing rolls over before 09:00Z
    clock.advanceTo('2026-12-02T08:59:00Z');
    await evaluate();
    expect((await insights.call('GET', `/alert-rules/${perLocation}`)).body.firing).toHaveLength(1);
    // 04:00 in New York: business day 2026-12-02, nothing sold yet: re-armed without a write
    clock.advanceTo('2026-12-02T09:00:30Z');
    await evaluate();
    expect((await insights.call('GET', `/alert-rules/${perLocation}`)).body.firing).toEqual([]);
    await sendSales([sale('NYC-1', '2026-12-02T10:00:00Z', '1200.00')]);
    await netSalesAt(nyc, '2026-12-02', '1200.00');
    await evaluate();
    const all = await alertsOf(perLocation);
    expect(all).toHaveLength(3);
    expect(all[2]).toMatchObject({ value: '1200.00', from: '2026-12-02', to: '2026-12-02' });
  });

  it('fires on creation when the condition already holds; a change in percent against the previous period', async () => {
    // Berlin: 2026-12-01 holds 300.00; 2026-12-02 (now) 480.00: +60 %
    await sendSales([sale('BER-1', '2026-12-02T10:00:00Z', '480.00')]);
    await netSalesAt(ber, '2026-12-02', '480.00');
    const r = await insights.call('POST', '/alert-rules', { body: rule({ scope: { locationIds: [ber] }, comparison: { operator: 'above', threshold: '50', against: 'previous_period' } }) });
    expect(r.status).toBe(201);
    expect(r.body.firing).toEqual([{ locationId: ber, since: expect.any(String) }]);
    expect(await alertsOf(r.body.id)).toEqual([expect.objectContaining({ value: '60.00', kpiValue: '480.00', baseValue: '300.00', threshold: '50', against: 'previous_period' })]);
    // a change re-arms and re-evaluates: above 70 % does not hold
    const changed = await insights.call('PATCH', `/alert-rules/${r.body.id}`, { body: { comparison: { operator: 'above', threshold: '70', against: 'previous_period' } } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ version: 2, firing: [] });
    // a last-days window: the complete days before today (2026-12-01: 300.00), below 500 holds
    const lastDay = await insights.call('PATCH', `/alert-rules/${r.body.id}`, { body: { comparison: { operator: 'below', threshold: '500' }, window: { kind: 'last_days', days: 1 } } });
    expect([lastDay.status, lastDay.body.locationIds, lastDay.body.firing.length]).toEqual([200, [ber], 1]);
    expect((await alertsOf(r.body.id)).at(-1)).toMatchObject({ value: '300.00', from: '2026-12-01', to: '2026-12-01' });
  });
});

describe('a labor KPI', () => {
  it('moves with time\'s calculated timesheets, at the location a timesheet leaves too', async () => {
    const id = (await insights.call('POST', '/alert-rules', { body: rule({ kpi: 'laborHours', comparison: { operator: 'above', threshold: '5' } }) })).body.id;
    const sheet = (version: number, locationId: string) => ({
      id: 'evt_sheet_' + version,
      type: 'time.timesheet.calculated',
      createdAt: clock.now().toISOString(),
      apiVersion: 'v1',
      actor: { type: 'system', id: null },
      locationId,
      data: {
        object: {
          id: 'tsh_alerts',
          employeeId: 'emp_alerts',
          version,
          days: [{ date: '2026-12-02', regularHours: '6.00', overtime: {}, shifts: [{ start: '2026-12-02T14:00:00Z', end: '2026-12-02T20:00:00Z', locationId, position: null, workedHours: '6.00', unpaidBreaks: [] }] }],
        },
      },
    });
    const publish = (e: ReturnType<typeof sheet>) => stack.bus.publish([{ topic: 'time', key: 'tsh_alerts', eventId: e.id, type: e.type, payload: e }]);
    const hoursAt = (loc: string, hours: string) =>
      eventually(async () => (await insights.call('GET', `/kpis?from=2026-12-02&to=2026-12-02&locationId=${loc}`)).body.figures?.laborHours === hours, 20_000);
    await publish(sheet(1, nyc));
    await hoursAt(nyc, '6.00');
    await evaluate();
    expect(await alertsOf(id)).toEqual([expect.objectContaining({ kpi: 'laborHours', value: '6.00', locationId: nyc })]);
    // the timesheet's next version puts the shift in Berlin: NYC falls to 0 hours and re-arms
    await publish(sheet(2, ber));
    await hoursAt(nyc, '0.00');
    await evaluate();
    expect((await insights.call('GET', `/alert-rules/${id}`)).body.firing).toEqual([]);
  });
});

describe('while the read models are rebuilt', () => {
  it('evaluates nothing: their figures are partial until the rebuild ends', async () => {
    const id = (await insights.call('POST', '/alert-rules', { body: rule({ comparison: { operator: 'above', threshold: '1300' } }) })).body.id;
    expect(await alertsOf(id)).toEqual([]);
    await serviceSql(insights)(`insert into insights.rebuilds (id, started_at, events, status) values ('rbd_test', ?, 0, 'running')`, [clock.now().toISOString()]);
    await sendSales([sale('NYC-1', '2026-12-02T10:30:00Z', '200.00')]);
    await netSalesAt(nyc, '2026-12-02', '1400.00');
    await evaluate();
    expect(await alertsOf(id)).toEqual([]);
    await serviceSql(insights)(`update insights.rebuilds set status = 'done', finished_at = now() where id = 'rbd_test'`);
    await evaluate();
    expect(await alertsOf(id)).toEqual([expect.objectContaining({ value: '1400.00' })]);
  });
});

describe('the endpoints', () => {
  it('refuses a call without credentials', async () => {
    expect((await http(insights.svc.url, 'GET', '/alert-rules')).status).toBe(401);
    expect((await http(insights.svc.url, 'GET', '/alerts')).status).toBe(401);
  });

  it('needs alerts.manage to write and reports.read to read; a key writes', async () => {
    const reader = person({ 'reports.read': [{ type: 'everyone' }] });
    const refused = await insights.call('POST', '/alert-rules', { body: rule(), as: reader });
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
    const created = await insights.call('POST', '/alert-rules', { body: rule() });
    const id = created.body.id;
    expect((await insights.call('GET', `/alert-rules/${id}`, { as: reader })).status).toBe(200);
    expect((await insights.call('PATCH', `/alert-rules/${id}`, { body: { name: 'x' }, as: reader })).status).toBe(403);
    expect((await insights.call('DELETE', `/alert-rules/${id}`, { as: reader })).status).toBe(403);
    const none = person({ 'sales.read': [{ type: 'everyone' }] });
    for (const path of ['/alert-rules', `/alert-rules/${id}`, '/alerts']) expect((await insights.call('GET', path, { as: none })).body.code).toBe('forbidden');

    const readKey = integration(['reports:read']);
    expect((await insights.call('GET', '/alert-rules', { as: readKey })).status).toBe(200);
    expect((await insights.call('GET', '/alerts', { as: readKey })).status).toBe(200);
    // a key's scope (reports:write to write) and the feature switch are the gateway's: test/access.test.ts walks these rows through it
    const writeKey = integration(['reports:write', 'reports:read']);
    expect((await insights.call('POST', '/alert-rules', { body: rule(), as: writeKey })).status).toBe(201);
  });

  it('keeps rules and alerts within the reader\'s reach, and the author\'s reach must cover the scope', async () => {
    const both = (await insights.call('POST', '/alert-rules', { body: rule({ scope: { locationIds: [nyc, ber] } }) })).body.id;
    const nycOnly = (await insights.call('POST', '/alert-rules', { body: rule() })).body.id;
    const atNyc = person({ 'reports.read': [{ type: 'locations', ids: [nyc] }] });
    expect((await insights.call('GET', `/alert-rules/${nycOnly}`, { as: atNyc })).status).toBe(200);
    const out = await insights.call('GET', `/alert-rules/${both}`, { as: atNyc });
    expect([out.status, out.body.code]).toEqual([403, 'out_of_reach']);
    const listed = (await insights.call('GET', '/alert-rules?limit=100', { as: atNyc })).body.data.map((r: { id: string }) => r.id);
    expect(listed).toContain(nycOnly);
    expect(listed).not.toContain(both);
    // firings: those at NYC; the whole-scope firing of a rule over NYC and Berlin is not shown
    const seen = (await insights.call('GET', '/alerts?limit=100', { as: atNyc })).body.data;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((a: { locationId: string | null }) => a.locationId === nyc)).toBe(true);
    const berlin = await insights.call('GET', `/alerts?locationId=${ber}`, { as: atNyc });
    expect([berlin.status, berlin.body.code]).toEqual([403, 'out_of_reach']);

    const author = person({ 'alerts.manage': [{ type: 'locations', ids: [nyc] }], 'reports.read': [{ type: 'locations', ids: [nyc] }] });
    const refused = await insights.call('POST', '/alert-rules', { body: rule({ scope: { locationIds: [ber] } }), as: author });
    expect([refused.status, refused.body.code]).toEqual([403, 'out_of_reach']);
  });

  it('refuses bad input with the fields named, and stores nothing', async () => {
    const before = (await serviceSql(insights)(`select count(*)::int as n from insights.alert_rules`))[0].n;
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ ...rule(), name: undefined }, ['name']],
      [rule({ kpi: 'guests' }), ['kpi']],
      [rule({ comparison: { operator: 'above', threshold: 1000 } }), ['comparison.threshold']],
      [rule({ comparison: { operator: 'over', threshold: '1' } }), ['comparison.operator']],
      [rule({ scope: { locationIds: [nyc], orgUnitId: 'ou_x' } }), ['scope.locationIds']],
      [rule({ scope: {} }), ['scope.locationIds']],
      [rule({ window: { kind: 'last_days' } }), ['window.days']],
      [rule({ window: { kind: 'today', days: 3 } }), ['window.days']],
      [rule({ window: { kind: 'last_days', days: 400 } }), ['window.days']],
      [rule({ comparison: { operator: 'above', threshold: '1', against: 'plan' } }), ['comparison.against']],
      [{ ...rule(), extra: true }, ['']],
    ];
    for (const [body, expected] of cases) {
      const r = await insights.call('POST', '/alert-rules', { body });
      expect([r.status, JSON.stringify(body)]).toEqual([422, JSON.stringify(body)]);
      if (expected[0] !== '') expect(paths(r.body)).toEqual(expected);
    }
    const unknown = await insights.call('POST', '/alert-rules', { body: rule({ scope: { locationIds: [nyc, 'loc_nope'] } }) });
    expect([unknown.status, paths(unknown.body)]).toEqual([422, ['scope.locationIds[1]']]);
    const emptyUnit = await insights.call('POST', '/alert-rules', { body: rule({ scope: { orgUnitId: 'ou_nope' } }) });
    expect([emptyUnit.status, paths(emptyUnit.body)]).toEqual([422, ['scope.orgUnitId']]);
    expect((await insights.call('GET', '/alerts?from=yesterday')).status).toBe(400);
    expect((await serviceSql(insights)(`select count(*)::int as n from insights.alert_rules`))[0].n).toBe(before);
  });

  it('changes a rule with If-Match, archives it, and lists with filters and cursor pages', async () => {
    const id = (await insights.call('POST', '/alert-rules', { body: rule({ kpi: 'laborPercent', comparison: { operator: 'above', threshold: '30' } }) })).body.id;
    const stale = await insights.call('PATCH', `/alert-rules/${id}`, { body: { name: 'Labor' }, headers: { 'if-match': '"5"' } });
    expect([stale.status, stale.body.code]).toEqual([409, 'version_mismatch']);
    const renamed = await insights.call('PATCH', `/alert-rules/${id}`, { body: { name: 'Labor' }, headers: { 'if-match': '"1"' } });
    expect(renamed.body).toMatchObject({ name: 'Labor', version: 2 });
    // the same again: nothing changed, same version
    expect((await insights.call('PATCH', `/alert-rules/${id}`, { body: { name: 'Labor' } })).body.version).toBe(2);
    const bad = await insights.call('PATCH', `/alert-rules/${id}`, { body: { window: { kind: 'last_days' } } });
    expect([bad.status, paths(bad.body)]).toEqual([422, ['window.days']]);

    const archived = await insights.call('DELETE', `/alert-rules/${id}`, { headers: { 'if-match': '"2"' } });
    expect(archived.body).toMatchObject({ status: 'archived', archivedAt: expect.any(String), version: 3 });
    expect((await insights.call('DELETE', `/alert-rules/${id}`)).body.version).toBe(3);
    const frozen = await insights.call('PATCH', `/alert-rules/${id}`, { body: { name: 'x' } });
    expect([frozen.status, frozen.body.code]).toEqual([409, 'conflict']);
    // a change event per change (the project's types), data.object the rule as the API returns it; the unchanged PATCH and the second DELETE record none
    const ruleEvents = (await outboxPayloads(insights, 'insights', { aggregateId: id })).filter((e) => e.type.startsWith('alert_rule.'));
    expect(ruleEvents.map((e) => [e.type, e.data.object.id, e.data.object.version])).toEqual([
      ['alert_rule.created', id, 1],
      ['alert_rule.updated', id, 2],
      ['alert_rule.archived', id, 3],
    ]);
    expect(ruleEvents[1]).toMatchObject({ locationId: null, data: { object: renamed.body, previous: { name: expect.any(String) } } });
    expect(ruleEvents[2].data).toMatchObject({ object: archived.body, previous: { status: 'active', archivedAt: null } });
    // an archived rule watches nothing: a sale marks nothing for it
    await sendSales([sale('NYC-1', '2026-12-02T11:00:00Z', '1.00')]);
    await netSalesAt(nyc, '2026-12-02', '1401.00');
    expect((await serviceSql(insights)(`select 1 from insights.alert_dirty where rule_id = ?`, [id])).length).toBe(0);
    expect((await insights.call('GET', '/alert-rules/alr_missing')).status).toBe(404);

    expect((await insights.call('GET', '/alert-rules?status=archived')).body.data.map((r: { id: string }) => r.id)).toEqual([id]);
    const page1 = await insights.call('GET', '/alert-rules?limit=2');
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await insights.call('GET', `/alert-rules?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`);
    expect(page2.body.data[0].id > page1.body.data[1].id).toBe(true);

    await evaluate();
    const all = (await insights.call('GET', `/alerts?locationId=${nyc}&limit=100`)).body.data;
    expect(all.length).toBeGreaterThan(1);
    const since = all.at(-1).triggeredAt;
    const recent = (await insights.call('GET', `/alerts?locationId=${nyc}&from=${encodeURIComponent(since)}`)).body.data;
    expect(recent.every((a: { triggeredAt: string }) => a.triggeredAt >= since)).toBe(true);
    const firstPage = await insights.call('GET', `/alerts?limit=1`);
    expect(firstPage.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
  });

  it('watches the locations of an org unit as they stand when the rule is saved; reach by org unit', async () => {
    const org = stack.services.organization;
    const unit = await org.call('POST', '/org-units', { body: { name: unique('East') } });
    expect(unit.status).toBe(201);
    expect((await org.call('PATCH', `/locations/${ber}`, { body: { orgUnitId: unit.body.id } })).status).toBe(200);
    await eventually(async () => (await serviceSql(insights)(`select 1 from insights.locations where id = ? and org_unit_id = ?`, [ber, unit.body.id])).length === 1);
    const r = await insights.call('POST', '/alert-rules', { body: rule({ scope: { orgUnitId: unit.body.id } }) });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ scope: { locationIds: null, orgUnitId: unit.body.id, evaluate: 'each_location' }, locationIds: [ber] });
    const unitReader = person({ 'reports.read': [{ type: 'org_units', ids: [unit.body.id] }] });
    expect((await insights.call('GET', `/alert-rules/${r.body.id}`, { as: unitReader })).status).toBe(200);
    expect((await insights.call('GET', '/alert-rules?limit=100', { as: unitReader })).body.data.every((x: { locationIds: string[] }) => x.locationIds.every((l) => l === ber))).toBe(true);
  });
});
