/**
 * The bus contract against a real Kafka broker (a `*.kafka.test.ts` suite: it runs when the test run
 * has a broker — KAFKA_BROKERS, or KAFKA_TESTS=1 / CI, where the run starts `npm run kafka:local`'s
 * broker itself — and fails when it cannot reach one). Three partitions per topic: order holds per key.
 */
import { createLogger } from '@bop/shared';
import { kafkaBusFactoryFromEnv } from '../src/bus/kafka';
import { busContract } from './bus-contract';

const factory = kafkaBusFactoryFromEnv(createLogger('kafka', 'warn'), process.env, { partitions: 3 });
if (!factory) throw new Error('a *.kafka.test.ts suite runs only with KAFKA_BROKERS set (see test/global-setup.mjs)');
busContract('kafka', factory);
