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
import { z } from './zod';

/** `GET /openapi.json`: this document itself (the gateway serves it). */
export const OpenApiDescription = z
  .object({
    openapi: z.string().openapi({ example: '3.1.0' }),
    info: z.object({ title: z.string(), version: z.string() }).openapi({ example: { title: 'Business operations platform API', version: '1.0.0' } }),
    servers: z.array(z.object({ url: z.string() })).optional().openapi({ example: [{ url: 'http://127.0.0.1:8080/api/v1' }] }),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())).openapi({ example: { '/locations': { get: { operationId: 'getLocations' } } } }),
    components: z.record(z.string(), z.unknown()).optional().openapi({ example: {} }),
  })
  .openapi('OpenApiDescription', { description: 'An OpenAPI 3.1 document: the served endpoints of the enabled features' });

const gatewayOperations = {
  'GET /openapi.json': { response: OpenApiDescription },
};

export const operations = {
  ...gatewayOperations,
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
