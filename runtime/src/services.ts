import type { ServiceDefinition } from '@bop/shared';
import { identityService } from '@svc/identity';
import { organizationService } from '@svc/organization';

/** The services this build runs; each area service is added here when it lands. */
export const serviceDefinitions: ServiceDefinition<any>[] = [identityService, organizationService];
