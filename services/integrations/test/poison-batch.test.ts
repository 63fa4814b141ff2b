/**
 * Issue 13, item 2: `POST /cash/bank-transactions {"source":"\u0000","transactions":[null]}` with an
 * integration key was accepted (202) and cash published its `cash.batch.completed`; the batch
 * consumer failed on the NUL, failed again parking it (jsonb refuses `\u0000`) and retried it for
 * ever: no later batch of any integration was recorded. The edge now refuses NUL, but an event can
 * carry anything a producer once accepted: here the event goes on the bus exactly as cash emitted it.
 */
import { newIdWithPrefix } from '@bop/shared';
import { identityService } from '@svc/identity';
import { integrationsService } from '../src';
import { eventually, quietIdentity, sql, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { register } from './fixtures';

let stack: TestServices;
let t: TestService;
beforeAll(async () => {
  stack = await startTestServices([identityService, integrationsService], { ...quietIdentity, CONSUMER_MAX_ATTEMPTS: '2' });
  t = stack.services.integrations;
});
afterAll(async () => {
  await stack?.close();
});

/** `cash.batch.completed` as the kit's ingestion writes it for a batch from an integration (shared/src/ingest.ts). */
function cashBatchCompleted(integrationId: string, over: Record<string, unknown> = {}) {
  const batchId = newIdWithPrefix('bat');
  const object = {
    batchId,
    integrationId,
    source: 'bank feed',
    endpoint: 'POST /cash/bank-transactions',
    received: 1,
    created: 1,
    updated: 0,
    unchanged: 0,
    duplicate: 0,
    rejected: 0,
    rejectedRecords: [],
    createdAt: new Date().toISOString(),
    ...over,
  };
  const id = newIdWithPrefix('evt');
  const payload = { id, type: 'cash.batch.completed', createdAt: object.createdAt, apiVersion: 'v1', actor: { type: 'integration', id: integrationId }, locationId: null, data: { object } };
  return { topic: 'cash', key: batchId, eventId: id, type: payload.type, payload, batchId };
}

const batchIds = async (integrationId: string): Promise<string[]> => {
  const r = await t.call('GET', `/integrations/${integrationId}/batches`);
  return r.body.data.map((b: { batchId: string }) => b.batchId);
};

describe('the batch-recording consumer and a poison batch event', () => {
  it('records the NUL-bearing batch of the reproduction (NUL kept as U+FFFD) and every later batch', async () => {
    const { integration } = await register(t);
    const other = (await register(t)).integration;
    // what `{"source":"\u0000","transactions":[null]}` produced: one record received, rejected
    const poison = cashBatchCompleted(integration.id, {
      source: '\u0000',
      received: 1,
      created: 0,
      rejected: 1,
      rejectedRecords: [{ index: 0, externalId: null, errors: [{ path: '', message: 'Expected an object.\u0000' }] }],
    });
    const later = cashBatchCompleted(integration.id);
    const ofOther = cashBatchCompleted(other.id);
    await stack.bus.publish([poison, later, ofOther]);

    await eventually(async () => (await batchIds(other.id)).includes(ofOther.batchId), 30_000);
    expect(await batchIds(integration.id)).toEqual([poison.batchId, later.batchId]);
    const all = await t.call('GET', `/integrations/${integration.id}/batches`);
    expect(all.body.data[0]).toMatchObject({ source: '\uFFFD', rejected: 1, rejectedRecords: [{ index: 0, externalId: null, errors: [{ path: '', message: 'Expected an object.\uFFFD' }] }] });
    expect(await sql(stack, 'select 1 from integrations.dead_letters where event_id = $1', [poison.eventId])).toEqual([]);
  });

  it('parks a batch event it cannot record, payload as text with its NUL, and records the batches after it', async () => {
    const { integration } = await register(t);
    const poison = cashBatchCompleted(integration.id, { source: '\u0000', received: 'one', transactions: [null] });
    const later = cashBatchCompleted(integration.id);
    await stack.bus.publish([poison, later]);

    await eventually(async () => (await batchIds(integration.id)).includes(later.batchId), 30_000);
    const [parked] = await sql(stack, 'select consumer, payload, error, attempts from integrations.dead_letters where event_id = $1', [poison.eventId]);
    expect(parked).toMatchObject({ consumer: 'integrations.ingestion-batches', attempts: 2 });
    expect(parked.error).toMatch(/not a BatchCompletedEvent \(received: /);
    expect(parked.payload).toContain('"source":"\\u0000"');
    expect(JSON.parse(parked.payload)).toEqual(poison.payload);
    expect(await batchIds(integration.id)).toEqual([later.batchId]);
  });
});
