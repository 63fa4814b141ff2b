/**
 * The trace context of a thread with tracing on (startTracing): synchronous until a service starts in
 * the thread (the gateway's thread never does: its calls take each request's context explicitly),
 * then carried across awaits by AsyncLocalStorage (useAsyncTraceContext) while traced work is in
 * flight in the thread, and synchronous again when none is.
 */
import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
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

describe('the thread context manager', () => {
  afterAll(() => stopTracing());

  it('holds a context while context.with runs, then across awaits while traced work is in flight once a service starts in the thread', async () => {
    // the spans made here go to an endpoint nobody listens on: their export fails, nothing else
    expect(startTracing('thread-context-test', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).not.toBeNull();
    const synchronous = ['request', undefined, undefined, 'bound'];
    const carried = ['request', 'request', undefined, 'bound'];
    expect(await seenAcrossAnAwait()).toEqual(synchronous);
    useAsyncTraceContext();
    // no traced work in flight: AsyncLocalStorage is not in use
    expect(await seenAcrossAnAwait()).toEqual(synchronous);
    // traced work (a recording span) in flight: contexts are carried across awaits, nested work too
    await inSpan('traced work', {}, async () => {
      expect(await seenAcrossAnAwait()).toEqual(carried);
      await inSpan('nested', {}, async () => expect(await seenAcrossAnAwait()).toEqual(carried));
      expect(await seenAcrossAnAwait()).toEqual(carried);
    });
    // the last traced work ended: synchronous again, and carried again with the next
    expect(await seenAcrossAnAwait()).toEqual(synchronous);
    await inSpan('more traced work', {}, async () => expect(await seenAcrossAnAwait()).toEqual(carried));
    useAsyncTraceContext(); // once is for good
    expect(await seenAcrossAnAwait()).toEqual(synchronous);
  });
});
