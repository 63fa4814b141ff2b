import { fixedClock, useClock } from '@bop/shared';
import { integration, outboxPayloads, person, startTestService, type TestService } from '@bop/test-support';
import { schedulingService } from '../src';
import { localHours, scheduledIn, staffNeeded } from '../src/staffing/needs';
import { replicaLocation } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(schedulingService);
});
afterAll(async () => {
  useClock({ now: () => new Date() });
  await t?.close();
});

describe('staffing needs (pure)', () => {
  it('one cook per 40 covers an hour, at least one from 10:00, the largest ask of overlapping rules, a cap', () => {
    const hours = localHours('2026-12-07', '2026-12-07', 'UTC');
    const covers = (h: number) => (h >= 12 && h < 14 ? 130 : h >= 18 && h < 21 ? 81 : 20);
    const needs = staffNeeded(
      hours,
      [
        { position: 'Cook', driver: 'covers', perStaff: 40, minStaff: 1, fromTime: '10:00', toTime: '23:00' },
        { position: 'Cook', minStaff: 2, weekdays: ['monday'], fromTime: '19:00', toTime: '20:00' },
        { position: 'Server', driver: 'covers', perStaff: 20, minStaff: 0, maxStaff: 5, fromTime: '11:00', toTime: '22:00' },
      ],
      (_d, at) => covers(new Date(at).getUTCHours()),
    );
    const at = (position: string, hour: number) => needs.find((n) => n.position === position && new Date(n.start).getUTCHours() === hour)?.needed;
    expect([at('Cook', 9), at('Cook', 10), at('Cook', 12), at('Cook', 18), at('Cook', 19)]).toEqual([undefined, 1, 4, 3, 3]);
    expect([at('Server', 12), at('Server', 18)]).toEqual([5, 5]);
    expect(needs.find((n) => n.position === 'Cook' && new Date(n.start).getUTCHours() === 12)!.drivers).toEqual({ covers: 130 });
  });

  it('a DST day has 23 or 25 local hours, and a shift counts by its share of the hour', () => {
    expect(localHours('2026-03-08', '2026-03-08', 'America/New_York')).toHaveLength(23);
    expect(localHours('2026-11-01', '2026-11-01', 'America/New_York')).toHaveLength(25);
    expect(scheduledIn(0, 3_600_000, [{ start: 1_800_000, end: 7_200_000 }, { start: 0, end: 3_600_000 }])).toBe(1.5);
  });
});

describe('staffing rules and needs', () => {
  it('creates, changes and archives rules, with their checks', async () => {
    const loc = await replicaLocation(t);
    const r = await t.call('POST', '/staffing-rules', { body: { locationId: loc, position: 'Cook', driver: 'covers', perStaff: 40, minStaff: 1, fromTime: '10:00', toTime: '23:00' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ locationId: loc, position: 'Cook', driver: 'covers', perStaff: 40, minStaff: 1, maxStaff: null, weekdays: null, status: 'active', version: 1 });
    expect((await t.call('PATCH', `/staffing-rules/${r.body.id}`, { body: { maxStaff: 4 }, headers: { 'if-match': '"1"' } })).body).toMatchObject({ maxStaff: 4, version: 2 });
    expect((await t.call('PATCH', `/staffing-rules/${r.body.id}`, { body: { maxStaff: 0 } })).body.errors).toEqual([{ path: 'maxStaff', message: 'Must not be below minStaff.' }]);
    expect((await t.call('PATCH', `/staffing-rules/${r.body.id}`, { body: { driver: null } })).body.errors[0].path).toBe('driver');
    const bad = await t.call('POST', '/staffing-rules', { body: { locationId: loc, position: 'Cook', driver: 'covers', fromTime: '22:00', toTime: '10:00' } });
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['perStaff', 'toTime']);
    expect((await t.call('POST', '/staffing-rules', { body: { locationId: 'loc_nope', position: 'Cook', minStaff: 1 } })).body.errors).toEqual([{ path: 'locationId', message: 'No location loc_nope.' }]);
    expect((await t.call('GET', `/staffing-rules?locationId=${loc}`)).body.data).toHaveLength(1);
    const archived = await t.call('DELETE', `/staffing-rules/${r.body.id}`);
    expect(archived.body.status).toBe('archived');
    expect((await t.call('GET', `/staffing-rules?locationId=${loc}`)).body.data).toHaveLength(0);
    // a change event per change (issue 41 item 3), data.object the rule as the API returns it; refused changes record none
    const events = await outboxPayloads(t, 'scheduling', { aggregateId: r.body.id });
    expect(events.map((e) => e.type)).toEqual(['staffing_rule.created', 'staffing_rule.updated', 'staffing_rule.archived']);
    expect(events[0]).toMatchObject({ locationId: loc, data: { object: r.body } });
    expect(events[1].data.previous).toEqual({ maxStaff: null });
    expect(events[2].data.object).toEqual(archived.body);
    const other = person({ 'staffing_rules.manage': [{ type: 'locations', ids: [await replicaLocation(t)] }] });
    expect((await t.call('POST', '/staffing-rules', { as: other, body: { locationId: loc, position: 'Host', minStaff: 1 } })).body.code).toBe('out_of_reach');
  });

  it('hour by hour: needed from the forecast and the rules against the shifts scheduled; a driver without history counts its minimums', async () => {
    useClock(fixedClock('2026-12-07T06:00:00Z'));
    const loc = await replicaLocation(t);
    // 10 weeks of 60 covers an hour from 12:00 to 14:00 (15 a quarter), nothing else
    const drivers: unknown[] = [];
    for (let d = 0; d < 70; d++) {
      for (let q = 48; q < 56; q++) {
        const at = new Date(Date.parse('2026-09-28T00:00:00Z') + d * 86_400_000 + q * 900_000).toISOString();
        drivers.push({ externalId: at, locationId: loc, driver: 'covers', intervalStart: at, value: 15 });
      }
    }
    const feed = integration(['scheduling:write']);
    for (let i = 0; i < drivers.length; i += 1000) await t.call('POST', '/demand-drivers', { as: feed, body: { source: 'res', drivers: drivers.slice(i, i + 1000) } });
    await t.call('POST', '/staffing-rules', { body: { locationId: loc, position: 'Cook', driver: 'covers', perStaff: 25, minStaff: 1, fromTime: '11:00', toTime: '15:00' } });
    await t.call('POST', '/staffing-rules', { body: { locationId: loc, position: 'Host', driver: 'walk_ins', perStaff: 10, minStaff: 1, fromTime: '12:00', toTime: '14:00' } });
    await t.call('POST', '/shifts', { body: { locationId: loc, position: 'Cook', start: '2026-12-07T11:30:00Z', end: '2026-12-07T14:00:00Z' } });
    const needs = await t.call('GET', `/staffing-needs?locationId=${loc}&from=2026-12-07&to=2026-12-07`);
    expect(needs.status).toBe(200);
    const cook = needs.body.hours.filter((h: { position: string }) => h.position === 'Cook');
    expect(cook.map((h: { start: string; needed: number; scheduled: string; gap: string }) => [h.start.slice(11, 16), h.needed, h.scheduled, h.gap])).toEqual([
      ['11:00', 1, '0.50', '0.50'],
      ['12:00', 3, '1.00', '2.00'],
      ['13:00', 3, '1.00', '2.00'],
      ['14:00', 1, '0.00', '1.00'],
    ]);
    expect(cook[1].drivers.covers).toMatch(/^(59|60|61)\./);
    expect(needs.body.positions).toEqual([
      { position: 'Cook', neededHours: 8, scheduledHours: '2.50', shortHours: '5.50' },
      { position: 'Host', neededHours: 2, scheduledHours: '0.00', shortHours: '2.00' },
    ]);
    expect(needs.body.notes).toEqual([expect.stringMatching(/^walk_ins: .*has no walk_ins before .*Its rules count their minimums only\.$/)]);
  });
});
