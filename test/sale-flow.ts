/**
 * One flow through the gateway, as an operator and a point-of-sale system run it: a location, an item
 * with an opening balance, a webhook endpoint for stock changes, an integration that sends a sale; then
 * stock goes down (inventory depleted the sale it got over the bus), the day's expected cash follows
 * (cash consumed it over the bus) and the receiver gets a signed `stock.level_changed`. Run on every
 * bus and deployment shape (distributed.test.ts, distributed.kafka.test.ts, start.kafka.test.ts).
 */
import { createHmac } from 'node:crypto';
import { eventually, http, type Receiver } from '@bop/test-support';

/** What the flow made, for callers that check more (the events it caused, by record). */
export interface SaleFlowResult {
  locationId: string;
  itemId: string;
}

/** The status, or a failure that shows what the API said instead. */
function expectStatus(res: { status: number; body: unknown }, status: number): void {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
}

export async function saleFlow(base: string, admin: { email: string; password: string }, receiver: Receiver, tag = 'DIST'): Promise<SaleFlowResult> {
  const signIn = await http(base, 'POST', '/api/v1/auth/sign-in', { body: admin });
  expectStatus(signIn, 200);
  const auth = { authorization: `Bearer ${signIn.body.token}` };

  const loc = await http(base, 'POST', '/api/v1/locations', { headers: auth, body: { name: 'Distributed cafe', timezone: 'America/New_York', businessDayCutoff: '04:00', externalId: `${tag}-1` } });
  expectStatus(loc, 201);
  const item = await http(base, 'POST', '/api/v1/items', { headers: auth, body: { name: 'Cola', sku: `${tag}-COLA`, baseUnit: 'each' } });
  expectStatus(item, 201);
  const stocked = await http(base, 'POST', '/api/v1/inventory/adjustments', {
    headers: auth,
    body: { locationId: loc.body.id, reason: 'opening_balance', lines: [{ itemId: item.body.id, quantity: '10' }] },
  });
  expectStatus(stocked, 201);
  const level = async () => {
    const r = await http(base, 'GET', `/api/v1/stock-levels?itemId=${item.body.id}&locationId=${loc.body.id}`, { headers: auth });
    return r.status === 200 ? (r.body.data[0]?.onHand as string | undefined) : undefined;
  };
  expect(await eventually(async () => (await level()) === '10' && '10', 30_000, 200)).toBe('10');

  const endpoint = await http(base, 'POST', '/api/v1/webhook-endpoints', { headers: auth, body: { url: receiver.url, events: ['stock.level_changed'] } });
  expectStatus(endpoint, 201);
  const secret: string = endpoint.body.secret;

  const integration = await http(base, 'POST', '/api/v1/integrations', {
    headers: auth,
    body: { manifest: { name: 'Distributed POS', version: '1.0.0', description: 'distributed mode test', scopes: ['sales:write', 'sales:read'], webhooks: [] } },
  });
  expectStatus(integration, 201);
  const key: string = integration.body.apiKey;
  expect(key).toMatch(/^pk_/);

  // yesterday at noon in New York: business day = that date (cut-off 04:00)
  const day = new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 10);
  const batch = await http(base, 'POST', '/api/v1/sales/transactions:batch', {
    headers: { authorization: `Bearer ${key}` },
    body: {
      source: 'dist-pos',
      transactions: [
        {
          externalId: `${tag}-SALE-1`,
          locationExternalId: `${tag}-1`,
          registerId: 'R1',
          occurredAt: `${day}T16:00:00.000Z`,
          lines: [{ itemSku: `${tag}-COLA`, name: 'Cola', quantity: '3', unitPrice: '2.00', tax: '0.00' }],
          tenders: [{ type: 'cash', amount: '6.00' }],
          subtotal: '6.00',
          tax: '0.00',
          total: '6.00',
          currency: 'USD',
        },
      ],
    },
  });
  expectStatus(batch, 202);
  expect(batch.body).toMatchObject({ received: 1, created: 1 });

  // stock: 10 − 3 (inventory depletes the sale it got over the bus)
  expect(await eventually(async () => (await level()) === '7' && '7', 60_000, 200)).toBe('7');

  // cash: the day's expected cash from the sale (cash consumed it over the bus)
  const expectedCash = await eventually(
    async () => {
      const r = await http(base, 'GET', `/api/v1/cash/business-days?locationId=${loc.body.id}&from=${day}&to=${day}`, { headers: auth });
      const figures = r.status === 200 ? r.body.data[0]?.figures : undefined;
      return figures?.expectedCash === '6.00' ? figures.expectedCash : undefined;
    },
    60_000,
    200,
  );
  expect(expectedCash).toBe('6.00');

  // the webhook: stock.level_changed with the new level, signed with the endpoint's secret
  const delivery = await eventually(
    async () =>
      receiver.received.find((d) => {
        const event = d.json;
        return event.type === 'stock.level_changed' && event.data?.object?.itemId === item.body.id && event.data.object.onHand === '7';
      }),
    60_000,
    200,
  );
  const event = delivery.json;
  expect(event).toMatchObject({ type: 'stock.level_changed', apiVersion: 'v1', locationId: loc.body.id });
  const signature = String(delivery.headers['service-signature']);
  const t = /t=(\d+)/.exec(signature)![1];
  const expected = createHmac('sha256', secret).update(`${t}.${delivery.raw}`).digest('hex');
  expect(signature.split(',')).toContain(`v1=${expected}`);
  return { locationId: loc.body.id, itemId: item.body.id };
}
