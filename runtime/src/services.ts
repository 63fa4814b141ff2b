import type { ServiceDefinition } from '@bop/shared';
import { identityService } from '@svc/identity';
import { organizationService } from '@svc/organization';
import { webhooksService } from '@svc/webhooks';
import { integrationsService } from '@svc/integrations';
import { salesService } from '@svc/sales';
import { inventoryService } from '@svc/inventory';
import { purchasingService } from '@svc/purchasing';
import { cashService } from '@svc/cash';
import { filesService } from '@svc/files';
import { peopleService } from '@svc/people';
import { timeService } from '@svc/time';
import { schedulingService } from '@svc/scheduling';
import { operationsService } from '@svc/operations';
import { equipmentService } from '@svc/equipment';
import { communicationService } from '@svc/communication';
import { insightsService } from '@svc/insights';

/** The services this build runs; each area service is added here when it lands. */
export const serviceDefinitions: ServiceDefinition<any>[] = [identityService, organizationService, peopleService, webhooksService, integrationsService, salesService, inventoryService, purchasingService, cashService, filesService, timeService, schedulingService, operationsService, equipmentService, communicationService, insightsService];
