import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Whether an integration's keys are accepted (spec: a paused integration's keys are refused). */
export const IntegrationState = defineEntity({
  name: 'IntegrationState',
  schema: 'identity',
  tableName: 'integration_states',
  properties: {
    integrationId: p.string().primary(),
    paused: p.boolean(),
    updatedAt: p.datetime(),
  },
});
export type IntegrationState = InferEntity<typeof IntegrationState>;
