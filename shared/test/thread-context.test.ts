/**
 * The trace context of a thread with tracing on (startTracing): synchronous until a service starts in
 * the thread (the gateway's thread never does: its calls take each request's context explicitly),
 * then carried across awaits by AsyncLocalStorage (useAsyncTraceContext).
 */
import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { startTracing, stopTracing } from '../src/telemetry/tracing';
import { useAsyncTraceContext } from '../src/telemetry/trace-context';

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

  it('holds a context while context.with runs, then across awaits once a service starts in the thread', async () => {
    // no span is made here: the endpoint is never called
    expect(startTracing('thread-context-test', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).not.toBeNull();
    expect(await seenAcrossAnAwait()).toEqual(['request', undefined, undefined, 'bound']);
    useAsyncTraceContext();
    expect(await seenAcrossAnAwait()).toEqual(['request', 'request', undefined, 'bound']);
    useAsyncTraceContext(); // once is for good
    expect(await seenAcrossAnAwait()).toEqual(['request', 'request', undefined, 'bound']);
  });
});
