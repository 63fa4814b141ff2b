import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const IntegrationLog = defineEntity({
  name: 'IntegrationLog',
  tableName: 'integration_logs',
  properties: {
    id: p.string().primary(),
    integrationId: p.string(),
    level: p.string(),
    /** 0 debug … 3 error */
    levelRank: p.smallint(),
    message: p.text(),
    context: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime(),
  },
});
export type IntegrationLog = InferEntity<typeof IntegrationLog>;
