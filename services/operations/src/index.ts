import { createService, employeeReplicaConsumers, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { configSchema } from './config';
import { migrations } from './migrations';
import { OperationsLocation } from './locations/entities';
import { OperationsEmployee } from './employees/entities';
import { sensorEntities } from './sensors/entities';
import { sensorRoutes } from './sensors/routes';
import { sensorWorkers } from './sensors/workers';
import { OperationsForm, OperationsFormVersion } from './forms/entities';
import { formRoutes } from './forms/routes';
import { formInternalRoutes } from './forms/internal-routes';
import { OperationsFormSubmission } from './submissions/entities';
import { submissionRoutes } from './submissions/routes';
import { auditRoutes } from './audits/routes';
import { OperationsCorrectiveAction } from './corrective-actions/entities';
import { correctiveActionRoutes } from './corrective-actions/routes';

export { configSchema, type OperationsConfig } from './config';

/**
 * Operations: forms, checklists and audits with scoring, corrective actions raised by hand or by failed
 * answers, and sensors whose readings (batch ingestion) raise an alarm when they stay out of range.
 * Replicas of the organization (locations) and of people (employees, as assignees).
 */
export const operationsService = createService({
  name: 'operations',
  // the kit opens the transaction of every write and commits it with the unit's events
  configSchema,
  entities: [OperationsLocation, OperationsEmployee, ...sensorEntities, OperationsForm, OperationsFormVersion, OperationsFormSubmission, OperationsCorrectiveAction],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (operations' replica of the organization)
  locationsInOrgUnits: locationsInOrgUnitsOf('operations'),
  consumers: () => [...orgReplicaConsumers('operations'), ...employeeReplicaConsumers('operations')],
  workers: (svc) => [...sensorWorkers(svc)],
  routes: (svc) => [...sensorRoutes(svc), ...formRoutes(), ...submissionRoutes(), ...auditRoutes(), ...correctiveActionRoutes()],
  internalRoutes: () => [...formInternalRoutes()],
});
