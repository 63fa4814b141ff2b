import { defineOperations } from '../operation-types';
import { webhookEndpointOperations } from './endpoints';
import { eventTypeOperations } from './event-types';

export * from './endpoints';
export * from './event-types';

export const webhooksOperations = defineOperations({
  ...webhookEndpointOperations,
  ...eventTypeOperations,
});
