/** Which incoming requests are traced (decided before the HTTP instrumentation does any work) and at what ratio. */
import type { IncomingMessage } from 'node:http';
import { EdgeSampling, samplingRatio } from '../src/telemetry/tracing';

const request = (url: string, headers: Record<string, string> = {}) => ({ url, headers }) as unknown as IncomingMessage;
const TRACE = '0af7651916cd43dd8448eb211c80319c';

describe('samplingRatio', () => {
  it.each([
    [{}, 1],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_always_on' }, 1],
    [{ OTEL_TRACES_SAMPLER: 'always_off' }, 0],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, 0],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }, 0.1],
    [{ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '7' }, 1],
    [{ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'lots' }, 1],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio' }, 1],
  ])('%j → %d', (env, ratio) => {
    expect(samplingRatio(env)).toBe(ratio);
  });
});

describe('EdgeSampling', () => {
  it('follows the sampled flag of a traceparent, whatever the ratio', () => {
    const never = new EdgeSampling(0);
    expect(never.ignore(request('/api/v1/locations', { traceparent: `00-${TRACE}-b7ad6b7169203331-01` }))).toBe(false);
    expect(never.takeChosen()).toBe(false); // a continued trace is the parent's decision, not a chosen root
    const always = new EdgeSampling(1);
    expect(always.ignore(request('/api/v1/locations', { traceparent: `00-${TRACE}-b7ad6b7169203331-00` }))).toBe(true);
  });

  it('never starts a trace on a platform hop its caller did not trace, nor on health, readiness or metrics', () => {
    const always = new EdgeSampling(1);
    expect(always.ignore(request('/locations?limit=20', { 'x-internal-token': 'eyJ…' }))).toBe(true);
    for (const url of ['/health', '/ready', '/api/health', '/api/ready/', '/metrics', '/api/metrics?x=1']) expect(always.ignore(request(url))).toBe(true);
  });

  it('chooses edge requests at the ratio, and marks the one chosen for the root sampler once', () => {
    const always = new EdgeSampling(1);
    expect(always.ignore(request('/api/v1/locations'))).toBe(false);
    expect(always.takeChosen()).toBe(true);
    expect(always.takeChosen()).toBe(false);
    // a malformed traceparent is no parent: the request is a root like any other
    expect(always.ignore(request('/api/v1/locations', { traceparent: 'nonsense' }))).toBe(false);

    const tenth = new EdgeSampling(0.1);
    let traced = 0;
    for (let i = 0; i < 20_000; i++) if (!tenth.ignore(request('/api/v1/locations'))) traced++;
    expect(traced / 20_000).toBeGreaterThan(0.08);
    expect(traced / 20_000).toBeLessThan(0.12);
    expect(new EdgeSampling(0).ignore(request('/api/v1/locations'))).toBe(true);
  });
});
