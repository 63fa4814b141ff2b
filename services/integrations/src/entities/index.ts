import { Integration } from './integration';
import { IntegrationKey } from './integration-key';
import { IntegrationLog } from './integration-log';
import { IngestionBatch } from './ingestion-batch';

export * from './integration';
export * from './integration-key';
export * from './integration-log';
export * from './ingestion-batch';

export const entities = [Integration, IntegrationKey, IntegrationLog, IngestionBatch];
