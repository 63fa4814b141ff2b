/**
 * The KPIs insights feeds to the team displays (`insights.display_kpis.updated`, published on the real
 * bus as insights' relay would): stored as the location's display metrics (source `insights`), a late
 * update never over a newer one, a malformed one parked; and a push may not take an `insights.` name.
 * services/insights/test/display-feed.test.ts sends them from real sales.
 */
import { fixedClock } from '@bop/shared';
import { eventually, integration, outboxPayloads, publishEvent, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { communicationService } from '../src';
import { paths, replicaLocation } from './fixtures';

const clock = fixedClock('2026-12-01T15:00:00Z');
let stack: TestServices;
let t: TestService;
beforeAll(async () => {
  stack = await startTestServices([communicationService], { CONSUMER_MAX_ATTEMPTS: '1' }, { workers: false, clock });
  t = stack.services.communication;
});
afterAll(async () => {
  await stack?.close();
});

const pos = integration(['reports:write', 'reports:read'], { integrationId: 'int_pos', id: 'int_pos' });
const kpis = (locationId: string, measuredAt: string, netSales: string) => ({
  locationId,
  businessDay: '2026-12-01',
  measuredAt,
  metrics: [
    { name: 'insights.net_sales_today', value: netSales, unit: null, label: 'Sales today' },
    { name: 'insights.transactions_today', value: '3', unit: null, label: 'Transactions today' },
  ],
});
const shown = async (locationId: string) => (await t.call('GET', `/display-metrics?locationId=${locationId}`)).body.data as Array<Record<string, unknown>>;

describe('insights-display-metrics', () => {
  it('stores the KPIs as the location\'s display metrics, from insights, never a late one over a newer', async () => {
    const a = await replicaLocation(t);
    await publishEvent(stack, 'insights', 'insights.display_kpis.updated', { id: a, ...kpis(a, '2026-12-01T15:00:00.000Z', '170.50') }, { locationId: a });
    await eventually(async () => (await shown(a)).length === 2, 20_000);
    expect(await shown(a)).toEqual(expect.arrayContaining([
      { locationId: a, name: 'insights.net_sales_today', value: '170.50', unit: null, label: 'Sales today', measuredAt: '2026-12-01T15:00:00.000Z', updatedAt: '2026-12-01T15:00:00.000Z' },
      expect.objectContaining({ name: 'insights.transactions_today', value: '3' }),
    ]));
    const rows = await sql(t, `select source from communication.display_metrics where location_id = $1`, [a]);
    expect(rows.map((r: { source: string }) => r.source)).toEqual(['insights', 'insights']);

    // a newer update, then a late one measured before it: the newer stays
    await publishEvent(stack, 'insights', 'insights.display_kpis.updated', { id: a, ...kpis(a, '2026-12-01T15:00:05.000Z', '180.00') }, { locationId: a });
    await eventually(async () => (await shown(a)).some((m) => m.value === '180.00'), 20_000);
    await publishEvent(stack, 'insights', 'insights.display_kpis.updated', { id: a, ...kpis(a, '2026-12-01T14:59:00.000Z', '1.00') }, { locationId: a });
    // then a newer one (same key: handled after the late one)
    await publishEvent(stack, 'insights', 'insights.display_kpis.updated', { id: a, ...kpis(a, '2026-12-01T15:00:06.000Z', '181.00') }, { locationId: a });
    await eventually(async () => (await shown(a)).some((m) => m.value === '181.00'), 20_000);
    expect((await shown(a)).find((m) => m.name === 'insights.net_sales_today')).toMatchObject({ value: '181.00', measuredAt: '2026-12-01T15:00:06.000Z' });
    // insights' own figures: no display_metric.updated (that is for pushes)
    expect((await outboxPayloads(t, 'communication', { type: 'display_metric.updated' })).filter((e) => e.locationId === a)).toEqual([]);
  });

  it('parks a malformed update', async () => {
    const a = await replicaLocation(t);
    const bad = await publishEvent(stack, 'insights', 'insights.display_kpis.updated', { id: a, locationId: a, measuredAt: 'today', metrics: [{ name: 'sales_today', value: 12 }] });
    await eventually(async () => (await sql(t, `select 1 from communication.dead_letters where event_id = $1`, [bad.id])).length === 1, 20_000);
    expect(await shown(a)).toEqual([]);
  });

  it('refuses a push of a name under insights.', async () => {
    const a = await replicaLocation(t);
    const r = await t.call('POST', '/display-metrics', { as: pos, body: { locationId: a, metrics: [{ name: 'sales_today', value: '1.00' }, { name: 'insights.net_sales_today', value: '9.00' }] } });
    expect(r.status).toBe(422);
    expect(paths(r.body)).toEqual(['metrics.1.name']);
    expect(await shown(a)).toEqual([]);
  });
});
