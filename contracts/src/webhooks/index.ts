import { defineOperations } from '../operation-types';
import { webhookEndpointOperations } from './endpoints';
import { eventTypeOperations } from './event-types';
import { eventLogOperations } from './events';

export * from './endpoints';
export * from './event-types';
export * from './events';

export const webhooksOperations = defineOperations({
  ...webhookEndpointOperations,
  ...eventTypeOperations,
  ...eventLogOperations,
});
