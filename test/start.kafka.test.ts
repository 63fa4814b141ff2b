/**
 * `BUS=kafka npm start`: the all-in-one runtime (embedded Postgres, every service, the gateway) on the
 * test run's Kafka broker and schema registry, with a topic prefix of its own. The flow of sale-flow.ts
 * goes through it: a sale in, stock down, the day's expected cash, a signed webhook.
 */
import { randomBytes } from 'node:crypto';
import { Receiver } from '@bop/test-support';
import { BENCH_OWNER, startRuntimeProcess, type RuntimeProcess } from '../bench/runtime-process';
import { saleFlow } from './sale-flow';

jest.setTimeout(180_000);

const topicPrefix = `start${randomBytes(3).toString('hex')}-`;
let rt: RuntimeProcess;
let receiver: Receiver;

beforeAll(async () => {
  if (!process.env.KAFKA_BROKERS || !process.env.SCHEMA_REGISTRY_URL) throw new Error('the Kafka suites run with the test run\'s broker and registry (test/global-setup.mjs)');
  receiver = await Receiver.start();
  rt = await startRuntimeProcess(
    { BUS: 'kafka', KAFKA_TOPIC_PREFIX: topicPrefix, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'warn' },
    { readyTimeoutMs: 120_000 },
  );
}, 180_000);

afterAll(async () => {
  await rt?.stop();
  await receiver?.close();
});

describe('BUS=kafka npm start (the all-in-one runtime on Kafka and the schema registry)', () => {
  it('a sale through the gateway decreases stock, updates the expected cash and delivers a webhook', async () => {
    await saleFlow(rt.base, BENCH_OWNER, receiver, 'START');
  });
});
