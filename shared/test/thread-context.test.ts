/**
 * The trace context of a thread with tracing on (startTracing): synchronous until a service starts in
 * the thread (the gateway's thread never does: its calls take each request's context explicitly),
 * then carried across awaits in a slot of MikroORM's transaction context (useAsyncTraceContext), with
 * MikroORM's own transactions seeing what they would see without it.
 */
import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { TransactionContext, type EntityManager } from '@mikro-orm/core';
import { startTracing, stopTracing } from '../src/telemetry/tracing';
import { inSpan, useAsyncTraceContext } from '../src/telemetry/trace-context';

const KEY = createContextKey('bop.test');

async function seenAcrossAnAwait(): Promise<unknown[]> {
  const seen: unknown[] = [];
  const bound = context.bind(ROOT_CONTEXT.setValue(KEY, 'bound'), () => context.active().getValue(KEY));
  await context.with(ROOT_CONTEXT.setValue(KEY, 'request'), async () => {
    seen.push(context.active().getValue(KEY));
    await new Promise((r) => setTimeout(r, 1));
    seen.push(context.active().getValue(KEY));
  });
  seen.push(context.active().getValue(KEY), bound());
  return seen;
}

/** what MikroORM's em.transactional does: a transaction context for `em` around the work */
const inTransaction = <T>(em: EntityManager, work: () => Promise<T>): Promise<T> => TransactionContext.create(em, work);

describe('the thread context manager', () => {
  afterAll(() => stopTracing());

  it('holds a context while context.with runs, then across awaits once a service starts in the thread, MikroORM seeing its own transactions', async () => {
    // the spans made here go to an endpoint nobody listens on: their export fails, nothing else
    expect(startTracing('thread-context-test', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).not.toBeNull();
    const synchronous = ['request', undefined, undefined, 'bound'];
    const carried = ['request', 'request', undefined, 'bound'];
    expect(await seenAcrossAnAwait()).toEqual(synchronous);
    useAsyncTraceContext();
    expect(await seenAcrossAnAwait()).toEqual(carried);
    await inSpan('traced work', {}, async () => {
      expect(await seenAcrossAnAwait()).toEqual(carried);
      await inSpan('nested', {}, async () => expect(await seenAcrossAnAwait()).toEqual(carried));
    });
    useAsyncTraceContext(); // once is for good
    expect(await seenAcrossAnAwait()).toEqual(carried);

    const em = { name: 'default', _id: 7 } as unknown as EntityManager;
    const other = { name: 'default', _id: 8 } as unknown as EntityManager;
    // outside any transaction a traced context makes none for MikroORM
    await context.with(ROOT_CONTEXT.setValue(KEY, 'read'), async () => {
      await Promise.resolve();
      expect(TransactionContext.getEntityManager('default')).toBeUndefined();
      expect(context.active().getValue(KEY)).toBe('read');
      // a transaction started under it keeps the trace context, across awaits, and MikroORM sees its entity manager
      await inTransaction(em, async () => {
        await new Promise((r) => setTimeout(r, 1));
        expect(context.active().getValue(KEY)).toBe('read');
        expect(TransactionContext.getEntityManager('default')).toBe(em);
        // a context set inside the transaction keeps the transaction
        await context.with(ROOT_CONTEXT.setValue(KEY, 'query'), async () => {
          await Promise.resolve();
          expect(context.active().getValue(KEY)).toBe('query');
          expect(TransactionContext.getEntityManager('default')).toBe(em);
          // and a nested transaction (another fork) takes over the entity manager, not the trace context
          await inTransaction(other, async () => {
            await Promise.resolve();
            expect(TransactionContext.getEntityManager('default')).toBe(other);
            expect(context.active().getValue(KEY)).toBe('query');
          });
        });
        expect(context.active().getValue(KEY)).toBe('read');
      });
      expect(TransactionContext.getEntityManager('default')).toBeUndefined();
    });
    // a transaction outside any trace: the root context, MikroORM as ever
    await inTransaction(em, async () => {
      await Promise.resolve();
      expect(context.active()).toBe(ROOT_CONTEXT);
      expect(TransactionContext.getEntityManager('default')).toBe(em);
    });
  });
});
