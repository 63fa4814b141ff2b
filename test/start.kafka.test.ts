/**
 * `BUS=kafka npm start`: the all-in-one runtime (embedded Postgres, every service, the gateway) on the
 * test run's Kafka broker and schema registry, with a topic prefix of its own. The flow of sale-flow.ts
 * goes through it: a sale in, stock down, the day's expected cash, a signed webhook.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BENCH_OWNER, startRuntimeProcess, type RuntimeProcess } from '../bench/runtime-process';
import { saleFlow, type ReceivedHook } from './sale-flow';

jest.setTimeout(180_000);

const topicPrefix = `start${randomBytes(3).toString('hex')}-`;
let rt: RuntimeProcess;
let receiver: Server;
const received: ReceivedHook[] = [];

beforeAll(async () => {
  if (!process.env.KAFKA_BROKERS || !process.env.SCHEMA_REGISTRY_URL) throw new Error('the Kafka suites run with the test run\'s broker and registry (test/global-setup.mjs)');
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  rt = await startRuntimeProcess(
    { BUS: 'kafka', KAFKA_TOPIC_PREFIX: topicPrefix, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'warn' },
    { readyTimeoutMs: 120_000 },
  );
}, 180_000);

afterAll(async () => {
  await rt?.stop();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
});

describe('BUS=kafka npm start (the all-in-one runtime on Kafka and the schema registry)', () => {
  it('a sale through the gateway decreases stock, updates the expected cash and delivers a webhook', async () => {
    await saleFlow(rt.base, BENCH_OWNER, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, received, 'START');
  });
});
