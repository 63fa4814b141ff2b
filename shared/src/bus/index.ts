import type { Logger } from '../logger';
import type { Bus } from './types';
import { createPostgresBus } from './postgres';

export interface BusConfig {
  BUS: 'postgres' | 'kafka';
  BUS_DATABASE_URL?: string;
  DATABASE_URL?: string;
  BUS_POLL_MS: number;
  KAFKA_BROKERS?: string;
  KAFKA_CLIENT_ID: string;
  KAFKA_TOPIC_PREFIX: string;
  SCHEMA_REGISTRY_URL?: string;
}

/** The bus `BUS` names: `postgres` (the `bus` schema of BUS_DATABASE_URL, default DATABASE_URL) or `kafka`. */
export async function createBus(config: BusConfig, log: Logger): Promise<Bus> {
  if (config.BUS === 'kafka') {
    if (!config.KAFKA_BROKERS) throw new Error('BUS=kafka needs KAFKA_BROKERS');
    // loaded only when chosen: kafkajs stays out of the embedded default
    const { createKafkaBus } = require('./kafka') as typeof import('./kafka');
    return createKafkaBus({
      brokers: config.KAFKA_BROKERS.split(',').map((b) => b.trim()),
      clientId: config.KAFKA_CLIENT_ID,
      topicPrefix: config.KAFKA_TOPIC_PREFIX,
      schemaRegistryUrl: config.SCHEMA_REGISTRY_URL,
      log,
      ensureTopics: true,
    });
  }
  const url = config.BUS_DATABASE_URL ?? config.DATABASE_URL;
  if (!url) throw new Error('BUS=postgres needs BUS_DATABASE_URL or DATABASE_URL');
  return createPostgresBus({ connectionString: url, log, pollMs: config.BUS_POLL_MS });
}

export { createPostgresBus, busSchemaSql } from './postgres';
