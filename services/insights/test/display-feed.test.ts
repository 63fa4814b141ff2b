/**
 * Today's KPIs fed to the team displays: sales sent through sales' API, applied by insights' consumer
 * over the real bus (which marks the location), sent by the display-feed worker (run here with
 * runOnce and a moved clock) as `insights.display_kpis.updated` — at most once per location within
 * the throttle however many sales arrive — and stored by communication as the location's display
 * metrics (`GET /display-metrics`).
 */
import { organizationService } from '@svc/organization';
import { salesService } from '@svc/sales';
import { communicationService } from '@svc/communication';
import { fixedClock } from '@bop/shared';
import { eventually, integration, outboxPayloads, standardLocations, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { insightsService } from '../src';
import { DISPLAY_FEED_THROTTLE_MS } from '../src/display-feed/store';
import { sale } from './fixtures';

// a clock only the test moves: the throttle is measured on it, never on real time
const clock = fixedClock('2026-12-01T15:00:00Z');
let stack: TestServices;
let insights: TestService;
let nyc: string;
let ber: string;
const pos = integration(['sales:write', 'sales:read']);

beforeAll(async () => {
  // Tuesday 1 December 2026, 10:00 in New York (business day 2026-12-01)
  stack = await startTestServices([organizationService, salesService, insightsService, communicationService], {}, { workers: false, clock });
  insights = stack.services.insights;
  const locations = await standardLocations(stack, ['sales', 'insights', 'communication']);
  nyc = locations['NYC-1'];
  ber = locations['BER-1'];
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

async function sendSales(transactions: unknown[]): Promise<void> {
  const r = await stack.services.sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source: 'pos-display', transactions } });
  if (r.status !== 202 || r.body.rejected > 0) throw new Error(`sales batch: ${r.status} ${JSON.stringify(r.body)}`);
}
const netSalesAt = (locationId: string, expected: string) =>
  eventually(async () => (await insights.call('GET', `/kpis?from=2026-12-01&to=2026-12-01&locationId=${locationId}`)).body.figures?.netSales === expected, 20_000);
const feed = () => insights.svc.worker('display-feed').runOnce();
const sent = (locationId: string) => outboxPayloads(insights, 'insights', { type: 'insights.display_kpis.updated', aggregateId: locationId });
const shown = async (locationId: string) => {
  const r = await stack.services.communication.call('GET', `/display-metrics?locationId=${locationId}`);
  return Object.fromEntries((r.body.data as Array<{ name: string; value: string }>).map((m) => [m.name, m.value]));
};

describe('display-feed', () => {
  it('sends a burst of sales as one update per location within the throttle, and communication shows it', async () => {
    await sendSales([sale('NYC-1', '2026-12-01T14:00:00Z', '100.00'), sale('NYC-1', '2026-12-01T14:05:00Z', '50.50')]);
    await sendSales([sale('NYC-1', '2026-12-01T14:10:00Z', '20.00')]);
    await netSalesAt(nyc, '170.50');
    await feed();
    const first = await sent(nyc);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      type: 'insights.display_kpis.updated',
      locationId: nyc,
      data: { object: { locationId: nyc, businessDay: '2026-12-01', measuredAt: '2026-12-01T15:00:00.000Z', metrics: [
        { name: 'insights.net_sales_today', value: '170.50', unit: null, label: 'Sales today' },
        { name: 'insights.transactions_today', value: '3', unit: null, label: 'Transactions today' },
        { name: 'insights.labor_percent_today', value: '0.00', unit: '%', label: 'Labor % today' },
      ] } },
    });
    // no hours yet: sales per labor hour has no divisor and is left out, not shown as 0
    expect(first[0].data.object.metrics.map((m: { name: string }) => m.name)).not.toContain('insights.splh_today');
    // a location with no sales is not sent
    expect(await sent(ber)).toEqual([]);

    // communication stores them as the location's display metrics
    await eventually(async () => (await shown(nyc))['insights.net_sales_today'] === '170.50', 20_000);
    expect(await shown(nyc)).toMatchObject({ 'insights.net_sales_today': '170.50', 'insights.transactions_today': '3' });

    // more sales within the throttle: marked, not sent yet
    await sendSales([sale('NYC-1', '2026-12-01T14:30:00Z', '9.50')]);
    await netSalesAt(nyc, '180.00');
    clock.advance(DISPLAY_FEED_THROTTLE_MS - 1_000);
    await feed();
    expect(await sent(nyc)).toHaveLength(1);
    // once the throttle has passed: one more update with the new figures
    clock.advance(1_000);
    await feed();
    await feed();
    const after = await sent(nyc);
    expect(after).toHaveLength(2);
    expect(after[1].data.object.metrics[0]).toEqual({ name: 'insights.net_sales_today', value: '180.00', unit: null, label: 'Sales today' });
    await eventually(async () => (await shown(nyc))['insights.net_sales_today'] === '180.00', 20_000);
    // nothing new: nothing sent
    clock.advance(DISPLAY_FEED_THROTTLE_MS);
    await feed();
    expect(await sent(nyc)).toHaveLength(2);
  }, 60_000);
});
