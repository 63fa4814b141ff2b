/**
 * End to end with sales: items written through the items API reach sales' item replica through
 * item.created / item.updated on the bus, and POS lines are matched to them by itemSku, itemBarcode
 * and itemExternalId (spec: ingestion rule 3).
 */
import { salesService } from '@svc/sales';
import { eventually, integration } from '@bop/test-support';
import { startInventoryStack, type InventoryStack } from './fixtures';

let s: InventoryStack;
const pos = integration(['sales:write', 'sales:read']);

const salesSql = (q: string, p: unknown[] = []): Promise<any[]> => s.stack.services.sales.svc.runtime.orm.em.getConnection().execute(q, p);

/** A sale at NYC-1 of one unit at 1.00 per line, paid by card. */
function sale(externalId: string, lines: Array<Record<string, unknown>>) {
  const total = `${lines.length}.00`;
  return {
    externalId,
    locationExternalId: 'NYC-1',
    occurredAt: '2026-11-21T15:00:00Z',
    lines: lines.map((l) => ({ quantity: '1', unitPrice: '1.00', ...l })),
    tenders: [{ type: 'card', amount: total }],
    subtotal: total,
    tax: '0.00',
    total,
    currency: 'USD',
  };
}

async function storedLines(externalId: string): Promise<Array<{ itemId: string | null }>> {
  const rows = await salesSql(`select lines from sales.transactions where source = 'pos-e2e' and external_id = ?`, [externalId]);
  return rows[0].lines;
}

const batch = (transactions: unknown[]) => s.stack.services.sales.call('POST', '/sales/transactions:batch', { as: pos, body: { source: 'pos-e2e', transactions } });
const replica = async (id: string) => (await salesSql(`select sku, barcodes, external_id, name, status from sales.items where id = ?`, [id]))[0];

beforeAll(async () => {
  s = await startInventoryStack([salesService]);
  const ids = Object.values(s.locations);
  await eventually(async () => (await salesSql(`select 1 from sales.locations where id in (?, ?)`, ids)).length === 2);
});
afterAll(async () => {
  await s?.stack.close();
});

describe('items reach sales', () => {
  it('matches POS lines by SKU, barcode and externalId to items created through the items API', async () => {
    const latte = await s.stack.services.inventory.call('POST', '/items', { body: { sku: 'E2E-LATTE', barcodes: ['0012345678905'], name: 'Latte', baseUnit: 'each' } });
    expect(latte.status).toBe(201);
    const muffin = await s.stack.services.inventory.call('PUT', '/items/external/POS-MUFFIN', { as: integration(['inventory:write']), body: { name: 'Muffin', baseUnit: 'each' } });
    expect(muffin.status).toBe(201);
    await eventually(async () => (await salesSql(`select 1 from sales.items where id in (?, ?)`, [latte.body.id, muffin.body.id])).length === 2);
    expect(await replica(latte.body.id)).toEqual({ sku: 'E2E-LATTE', barcodes: ['0012345678905'], external_id: null, name: 'Latte', status: 'active' });

    const r = await batch([sale('E2E-1', [{ itemSku: 'E2E-LATTE', name: 'Latte' }, { itemBarcode: '0012345678905' }, { itemExternalId: 'POS-MUFFIN' }, { itemSku: 'E2E-NOPE' }])]);
    expect(r.status).toBe(202);
    expect(r.body.results[0]).toMatchObject({ status: 'created' });
    expect((await storedLines('E2E-1')).map((l) => l.itemId)).toEqual([latte.body.id, latte.body.id, muffin.body.id, null]);
  });

  it('follows changes and archiving through item.updated', async () => {
    const tea = (await s.stack.services.inventory.call('POST', '/items', { body: { sku: 'E2E-TEA', name: 'Tea', baseUnit: 'each' } })).body;
    await eventually(async () => (await replica(tea.id)) !== undefined);
    const renamed = await s.stack.services.inventory.call('PATCH', `/items/${tea.id}`, { body: { sku: 'E2E-TEA-2', name: 'Green tea' } });
    expect(renamed.status).toBe(200);
    await eventually(async () => (await replica(tea.id)).sku === 'E2E-TEA-2');
    expect(await replica(tea.id)).toMatchObject({ name: 'Green tea' });

    await batch([sale('E2E-2', [{ itemSku: 'E2E-TEA-2' }, { itemSku: 'E2E-TEA' }])]);
    expect((await storedLines('E2E-2')).map((l) => l.itemId)).toEqual([tea.id, null]);

    expect((await s.stack.services.inventory.call('DELETE', `/items/${tea.id}`)).status).toBe(200);
    await eventually(async () => (await replica(tea.id)).status === 'archived');
    // a late sale of a discontinued item is still that item
    await batch([sale('E2E-3', [{ itemSku: 'E2E-TEA-2' }])]);
    expect((await storedLines('E2E-3')).map((l) => l.itemId)).toEqual([tea.id]);
  });
});
