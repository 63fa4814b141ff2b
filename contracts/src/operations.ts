import { type OperationSchemas } from './operation-types';
import { identityOperations } from './identity';
import { organizationOperations } from './organization';
import { webhooksOperations } from './webhooks';
import { integrationsOperations } from './integrations';
import { salesOperations } from './sales';
import { inventoryOperations } from './inventory';
import { purchasingOperations } from './purchasing';
import { cashOperations } from './cash';
import { filesOperations } from './files';
import { peopleOperations } from './people';
import { timeOperations } from './time';
import { schedulingOperations } from './scheduling';
import { complianceOperations } from './compliance';
import { equipmentOperations } from './equipment';
import { communicationOperations } from './communication';
import { insightsOperations } from './insights';

export const operations = {
  ...identityOperations,
  ...organizationOperations,
  ...webhooksOperations,
  ...integrationsOperations,
  ...salesOperations,
  ...inventoryOperations,
  ...purchasingOperations,
  ...cashOperations,
  ...filesOperations,
  ...peopleOperations,
  ...timeOperations,
  ...schedulingOperations,
  ...complianceOperations,
  ...equipmentOperations,
  ...communicationOperations,
  ...insightsOperations,
};

export type Operations = typeof operations;
export type OperationKey = keyof Operations & string;

export function operationSchemas(key: string): OperationSchemas | undefined {
  return (operations as Record<string, OperationSchemas>)[key];
}

export { type OperationSchemas } from './operation-types';
