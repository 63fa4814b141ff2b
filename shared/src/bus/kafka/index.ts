// The `kafka` bus adapter, in files named for what they do: bus.ts (publishing, topics, groups),
// subscription.ts (a consumer group member), batches.ts (handing a batch on), records.ts (the record
// mapping), logging.ts (kafkajs into pino); payloads are the codec's (../codec.ts).
export { createKafkaBus, kafkaBusFactoryFromEnv, type KafkaBusOptions } from './bus';
export {
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  MAX_SEND_BYTES,
  allTopicsPattern,
  areaOf,
  fromKafkaMessage,
  kafkaTopic,
  nextOffset,
  toKafkaMessage,
  toSizedSends,
  toTopicBatches,
} from './records';
export { commitGathered, Gather, processBatch, retryDelayMs, type BatchRun, type PartitionOffset } from './batches';
export { kafkaLogLevel, pinoLogCreator } from './logging';
export { KeyHashPartitioner, murmur2 } from './partitioner';
export { createPayloadCodec, type InvalidEventReport, type PayloadCodec, type RegistryClient } from '../codec';
