/**
 * The same bus contract against Kafka, when a broker is given: KAFKA_BROKERS=localhost:29092
 * (docker compose up kafka). Without one, only the adapter's loading is checked here; its pure
 * parts are covered by kafka-adapter.test.ts.
 */
import { createLogger } from '@bop/shared';
import { createKafkaBus, kafkaBusFactoryFromEnv } from '../src/bus/kafka';
import { busContract } from './bus-contract';

const factory = kafkaBusFactoryFromEnv(createLogger('kafka', 'warn'), process.env, { partitions: 3 });

if (factory) {
  busContract('kafka', factory);
} else {
  describe('bus contract: kafka', () => {
    it('has an adapter to run against once KAFKA_BROKERS names a broker', () => {
      expect(typeof createKafkaBus).toBe('function');
    });
  });
}
