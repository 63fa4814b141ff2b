import { integration, outboxEvents, person, sql, startTestService, system, type TestService } from '@bop/test-support';
import { identityService, ownerEnv } from './fixtures';

let t: TestService;
beforeAll(async () => {
  t = await startTestService(identityService, ownerEnv);
});
afterAll(() => t?.close());

const exact = { quantityAbsolute: null, quantityPercent: null, priceAbsolute: null, pricePercent: null };

describe('company settings: invoice matching tolerances', () => {
  test('default to null (exact matching)', async () => {
    const r = await t.call('GET', '/company-settings', { as: integration(['organization:read']) });
    expect(r.status).toBe(200);
    expect(r.body.invoiceMatchTolerances).toEqual(exact);
  });

  test('set some, keep the absent ones, clear with null; each change is one event carrying the view', async () => {
    const before = (await t.call('GET', '/company-settings')).body;
    const set = await t.call('PATCH', '/company-settings', {
      body: { invoiceMatchTolerances: { quantityAbsolute: '0.5', quantityPercent: '2.5', priceAbsolute: '0.05', pricePercent: '100' } },
      headers: { 'if-match': `"${before.version}"` },
    });
    expect(set.status).toBe(200);
    expect(set.body.invoiceMatchTolerances).toEqual({ quantityAbsolute: '0.5', quantityPercent: '2.5', priceAbsolute: '0.05', pricePercent: '100' });
    expect(set.body.version).toBe(before.version + 1);

    // stored as four numeric columns and read back as the same text
    const [row] = await sql(t, 'select invoice_match_quantity_absolute, invoice_match_quantity_percent, invoice_match_price_absolute, invoice_match_price_percent from identity.company_settings');
    expect(row).toEqual({ invoice_match_quantity_absolute: '0.5', invoice_match_quantity_percent: '2.5', invoice_match_price_absolute: '0.05', invoice_match_price_percent: '100' });
    expect((await t.call('GET', '/company-settings')).body.invoiceMatchTolerances).toEqual(set.body.invoiceMatchTolerances);

    const cleared = await t.call('PATCH', '/company-settings', { body: { invoiceMatchTolerances: { pricePercent: null, quantityAbsolute: null } } });
    expect(cleared.body.invoiceMatchTolerances).toEqual({ quantityAbsolute: null, quantityPercent: '2.5', priceAbsolute: '0.05', pricePercent: null });

    // an empty object or the same values change nothing
    const same = await t.call('PATCH', '/company-settings', { body: { invoiceMatchTolerances: { quantityPercent: '2.5' } } });
    expect(same.body.version).toBe(cleared.body.version);
    expect((await t.call('PATCH', '/company-settings', { body: { invoiceMatchTolerances: {} } })).body.version).toBe(cleared.body.version);

    const events = await outboxEvents(t, 'identity', { type: 'identity.company_settings.updated' });
    expect(events).toHaveLength(2);
    expect(events[0].payload.data.object.invoiceMatchTolerances).toEqual(set.body.invoiceMatchTolerances);
    expect(events[0].payload.data.previous).toEqual({ invoiceMatchTolerances: exact });
    expect(events[1].payload.data.object.invoiceMatchTolerances).toEqual(cleared.body.invoiceMatchTolerances);
    expect(events[1].payload.data.previous).toEqual({ invoiceMatchTolerances: set.body.invoiceMatchTolerances });

    await t.call('PATCH', '/company-settings', { body: { invoiceMatchTolerances: { quantityPercent: null, priceAbsolute: null } } });
    expect((await t.call('GET', '/company-settings')).body.invoiceMatchTolerances).toEqual(exact);
  });

  test('bad values → 422 with field paths; nothing stored', async () => {
    const before = (await t.call('GET', '/company-settings')).body;
    const r = await t.call('PATCH', '/company-settings', {
      body: { invoiceMatchTolerances: { quantityAbsolute: '-1', quantityPercent: '100.5', priceAbsolute: 0.05, pricePercent: '2.12345' } },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'invoiceMatchTolerances.priceAbsolute',
      'invoiceMatchTolerances.pricePercent',
      'invoiceMatchTolerances.quantityAbsolute',
      'invoiceMatchTolerances.quantityPercent',
    ]);
    expect((await t.call('GET', '/company-settings')).body).toEqual(before);

    const more = await t.call('PATCH', '/company-settings', { body: { invoiceMatchTolerances: { quantityAbsolute: '1.1234567', priceAbsolute: '1.12345', margin: '1' } } });
    expect(more.status).toBe(422);
    expect(more.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'invoiceMatchTolerances.margin',
      'invoiceMatchTolerances.priceAbsolute',
      'invoiceMatchTolerances.quantityAbsolute',
    ]);

    const whole = await t.call('PATCH', '/company-settings', { body: { invoiceMatchTolerances: null } });
    expect(whole.status).toBe(422);
    expect(whole.body.errors.map((e: { path: string }) => e.path)).toEqual(['invoiceMatchTolerances']);

    for (const good of ['0', '100', '100.0000', '99.9999', '0.0001']) {
      const okay = await t.call('PATCH', '/company-settings', { body: { invoiceMatchTolerances: { pricePercent: good } } });
      expect(okay.status).toBe(200);
    }
    for (const bad of ['100.0001', '', '1e2', '01', '.5', '5.']) {
      const refused = await t.call('PATCH', '/company-settings', { body: { invoiceMatchTolerances: { pricePercent: bad } } });
      expect(refused.status).toBe(422);
    }
    await t.call('PATCH', '/company-settings', { body: { invoiceMatchTolerances: { pricePercent: before.invoiceMatchTolerances.pricePercent } } });
    expect((await t.call('GET', '/company-settings')).body.invoiceMatchTolerances).toEqual(before.invoiceMatchTolerances);
  });
});

describe('GET /internal/company-settings', () => {
  test('answers the system principal with the same view as GET /company-settings', async () => {
    await t.call('PATCH', '/company-settings', { body: { purchaseOrderApprovalThreshold: '750.00', invoiceMatchTolerances: { quantityPercent: '5' } } });
    const pub = await t.call('GET', '/company-settings');
    const internal = await t.call('GET', '/internal/company-settings', { as: system });
    expect(internal.status).toBe(200);
    expect(internal.body).toEqual(pub.body);
    expect(internal.body).toMatchObject({ purchaseOrderApprovalThreshold: '750.00', invoiceMatchTolerances: { ...exact, quantityPercent: '5' } });
  });

  test('refuses a person or an integration', async () => {
    const r = await t.call('GET', '/internal/company-settings', { as: person() });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('forbidden');
    expect((await t.call('GET', '/internal/company-settings', { as: integration(['organization:read']) })).status).toBe(403);
  });
});
