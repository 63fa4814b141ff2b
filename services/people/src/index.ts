import { createService, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { configSchema } from './config';
import { migrations } from './migrations';
import { PeopleLocation } from './locations/entities';
import { PeopleDepartment } from './departments/entities';
import { departmentConsumers } from './departments/consumers';
import { Employee } from './employees/entities';
import { employeeRoutes } from './employees/routes';
import { userLinkConsumers } from './employees/consumers';
import { effectiveChanges } from './employees/effective-changes-worker';
import { PayRate } from './pay-rates/entities';
import { payRateRoutes } from './pay-rates/routes';
import { Activity } from './activity/entities';
import { activityRoutes } from './activity/routes';
import { EmployeeDocument } from './documents/entities';
import { documentRoutes } from './documents/routes';
import { Certification } from './certifications/entities';
import { certificationRoutes } from './certifications/routes';
import { profileInternalRoutes, profileRoutes } from './profile/routes';
import { employeeInternalRoutes } from './employees/internal-routes';

export { configSchema, type PeopleConfig } from './config';

/**
 * People and HR: employees (who, where and in which department they work, which positions, from when;
 * effective-dated transfers and terminations), their pay rates, emergency contacts, documents and
 * certifications, the employee's own profile and data export, and the audit trail of every change, over replicas of organization's locations and departments and identity's user links.
 */
export const peopleService = createService({
  name: 'people',
  configSchema,
  entities: [PeopleLocation, PeopleDepartment, Employee, PayRate, Activity, EmployeeDocument, Certification],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (people's replica of the organization)
  locationsInOrgUnits: locationsInOrgUnitsOf('people'),
  consumers: () => [...orgReplicaConsumers('people'), ...departmentConsumers, ...userLinkConsumers],
  workers: (svc) => [effectiveChanges(svc)],
  routes: () => [...employeeRoutes(), ...payRateRoutes(), ...activityRoutes(), ...documentRoutes(), ...certificationRoutes(), ...profileRoutes()],
  internalRoutes: () => [...employeeInternalRoutes(), ...profileInternalRoutes()],
});
