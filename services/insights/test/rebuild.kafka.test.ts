/**
 * `ops insights rebuild` on Kafka: the chain's services share a real Kafka bus (3 partitions a topic,
 * the schema registry), the read models are fed over it, then rebuilt from what the broker keeps —
 * each partition read up to the end it had after the clear — giving the same figures; the replay's
 * consumer group is deleted from the cluster afterwards, so a second rebuild reads from the start again.
 */
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { createLogger } from '@bop/shared';
import { eventually, person, serviceSql } from '@bop/test-support';
import { createKafkaBus } from '../../../shared/src/bus/kafka';
import { rebuildReadModels, type RebuildProgress } from '../src';
import { closeCashDay, employee, recalculate, recordWaste, sale, sendPunches, sendSales, shift, startInsightsStack, type InsightsStack } from './fixtures';

const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
const registryUrl = process.env.SCHEMA_REGISTRY_URL;
if (brokers.length === 0 || !registryUrl) throw new Error('a *.kafka.test.ts suite runs with KAFKA_BROKERS and SCHEMA_REGISTRY_URL (npm run kafka:local prints both)');

const prefix = `test-${randomBytes(4).toString('hex')}-`;
let s: InsightsStack;

beforeAll(async () => {
  const bus = await createKafkaBus({ brokers, clientId: 'insights-rebuild-test', topicPrefix: prefix, schemaRegistryUrl: registryUrl, ensureTopics: true, partitions: 3, topicRefreshMs: 1000, log: createLogger('kafka', 'silent') });
  s = await startInsightsStack({ bus });
}, 120_000);

afterAll(async () => {
  await s?.stack.close();
});

const QUERY = 'from=2026-11-16&to=2026-11-17&compare=previous_period';
const kpis = () => s.insights.call('GET', `/kpis?${QUERY}`, { as: person() });

it('gives back the live read models’ figures from the broker, twice', async () => {
  const nyc = s.locations['NYC-1'];
  const ber = s.locations['BER-1'];
  const a = await employee(s, nyc, [{ amount: '20.00' }]);
  const c = await employee(s, ber, [{ amount: '15.00' }]);
  // keys spread over the partitions: transactions, timesheets and items of both locations
  await sendSales(s, [
    sale('NYC-1', '2026-11-16T17:00:00Z', '1000.00'),
    sale('NYC-1', '2026-11-16T23:30:00Z', '495.50'),
    sale('NYC-1', '2026-11-17T16:00:00Z', '3000.00'),
    sale('NYC-1', '2026-11-15T17:00:00Z', '500.00'),
    sale('BER-1', '2026-11-16T12:00:00Z', '2000.00'),
    sale('BER-1', '2026-11-17T12:00:00Z', '-150.25'),
  ]);
  await sendPunches(s, [...shift(a, nyc, '2026-11-16T13:00:00Z', '2026-11-16T22:00:00Z'), ...shift(c, ber, '2026-11-16T08:00:00Z', '2026-11-16T14:00:00Z')]);
  await recalculate(s);
  await recordWaste(s, nyc, '2.75', '5', '2026-11-16T15:00:00Z');
  await closeCashDay(s, nyc, '2026-11-16', '2026-11-17T03:00:00Z', '100.00', '95.00');
  // by hand: 1000 + 495.50 + 3000 + 2000 − 150.25 = 6345.25; labor 9 × 20 + 6 × 15 = 270.00; waste 5 × 2.75; over/short −5.00
  const live = await eventually(async () => {
    const r = await kpis();
    const f = r.body?.figures;
    return r.status === 200 && f.netSales === '6345.25' && f.laborCost === '270.00' && f.wasteValue === '13.75' && f.overShort === '-5.00' && r.body.comparison?.figures?.netSales === '500.00' ? r : undefined;
  }, 60_000);

  for (const round of [1, 2]) {
    const progress: RebuildProgress[] = [];
    const result = await rebuildReadModels(s.insights.svc.runtime, { onProgress: (p) => progress.push(p), progressEveryMs: 200 });
    expect([round, result.skipped]).toEqual([round, []]);
    expect(result.applied).toBeGreaterThan(10);
    expect(progress.at(-1)).toMatchObject({ applied: result.applied });
    for (const [table, rows] of Object.entries(result.rows)) expect([round, table, rows.after]).toEqual([round, table, rows.before]);
    expect((await kpis()).body).toEqual(live.body);
    const [rebuild] = await serviceSql(s.insights)(`select status, events from insights.rebuilds where id = ?`, [result.id]);
    expect(rebuild).toEqual({ status: 'done', events: result.applied });
  }

  // the replay's group is gone from the cluster: it holds nothing back and lags behind nothing
  const admin = new Kafka({ clientId: 'insights-rebuild-test-admin', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const { groups } = await admin.listGroups();
    expect(groups.map((g) => g.groupId).filter((g) => g.startsWith(prefix))).not.toContain(`${prefix}insights.rebuild`);
    expect(groups.map((g) => g.groupId)).toContain(`${prefix}insights.sales-read-model`);
  } finally {
    await admin.disconnect();
  }
}, 240_000);
