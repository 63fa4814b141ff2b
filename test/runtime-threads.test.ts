/**
 * The all-in-one runtime's worker threads (runtime/src/index.ts, threadGroups): RUNTIME_THREAD_SERVICES
 * names groups separated by `;`, one thread each, each group in the services' start order; a name that
 * is no service, or one named twice, stops the start with a plain reason. (test/e2e.test.ts and the
 * fault tests run the compiled runtime with the default groups.)
 */
import { StartupError, threadGroups } from '../runtime/src';
import { runtimeConfigSchema } from '../runtime/src/config';

const groups = (RUNTIME_THREAD_SERVICES: string, RUNTIME_THREADS: 'auto' | 'off' = 'auto') => threadGroups({ RUNTIME_THREADS, RUNTIME_THREAD_SERVICES }, { compiled: true, cores: 2 });

describe('runtime worker threads', () => {
  it('splits the services into the groups named, each in the start order', () => {
    expect(groups(runtimeConfigSchema.parse({}).RUNTIME_THREAD_SERVICES)).toEqual([
      ['identity', 'organization', 'people', 'webhooks', 'integrations', 'sales', 'files'],
      ['inventory', 'purchasing', 'cash', 'time', 'scheduling', 'operations', 'equipment', 'communication', 'insights'],
    ]);
    expect(groups(' cash , inventory ;; sales ;')).toEqual([['inventory', 'cash'], ['sales']]);
    expect(groups('')).toEqual([]);
  });

  it('runs nothing in a worker thread when threads are off, on one core or from sources', () => {
    expect(groups('inventory;sales', 'off')).toEqual([]);
    expect(threadGroups({ RUNTIME_THREADS: 'auto', RUNTIME_THREAD_SERVICES: 'inventory' }, { compiled: false, cores: 2 })).toEqual([]);
    expect(threadGroups({ RUNTIME_THREADS: 'auto', RUNTIME_THREAD_SERVICES: 'inventory' }, { compiled: true, cores: 1 })).toEqual([]);
  });

  it('refuses a name that is no service, or a service named twice', () => {
    expect(() => groups('inventory,stock')).toThrow(StartupError);
    expect(() => groups('inventory,stock')).toThrow(/names stock, which is not a service/);
    expect(() => groups('inventory;inventory,cash')).toThrow(/names inventory twice/);
  });
});
