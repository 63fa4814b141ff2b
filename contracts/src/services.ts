import type { ServiceName } from './catalogue/types';

/** Where each service listens by default (distributed mode overrides with SERVICE_URL_<NAME>) and its schema. */
export const serviceTable: Record<Exclude<ServiceName, 'gateway'>, { port: number; schema: string }> = {
  identity: { port: 3101, schema: 'identity' },
  organization: { port: 3102, schema: 'organization' },
  people: { port: 3103, schema: 'people' },
  time: { port: 3104, schema: 'time' },
  scheduling: { port: 3105, schema: 'scheduling' },
  sales: { port: 3106, schema: 'sales' },
  inventory: { port: 3107, schema: 'inventory' },
  purchasing: { port: 3108, schema: 'purchasing' },
  cash: { port: 3109, schema: 'cash' },
  operations: { port: 3110, schema: 'operations' },
  equipment: { port: 3111, schema: 'equipment' },
  communication: { port: 3112, schema: 'communication' },
  insights: { port: 3113, schema: 'insights' },
  files: { port: 3114, schema: 'files' },
  integrations: { port: 3115, schema: 'integrations' },
  webhooks: { port: 3116, schema: 'webhooks' },
};

export type AreaService = keyof typeof serviceTable;
