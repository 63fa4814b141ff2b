import { createService, employeeReplicaConsumers, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { configSchema } from './config';
import { migrations } from './migrations';
import { SchedulingLocation } from './locations/entities';
import { SchedulingEmployee } from './employees/entities';
import { ApprovedTimeOff } from './time-off/entities';
import { timeOffConsumers } from './time-off/consumers';
import { Availability } from './availability/entities';
import { availabilityRoutes } from './availability/routes';
import { Shift } from './shifts/entities';
import { shiftRoutes } from './shifts/routes';
import { shiftConsumers } from './shifts/consumers';

export { configSchema, type SchedulingConfig } from './config';

/**
 * Scheduling and forecasting: employees' availability, shifts (draft and published, open shifts
 * claimed), schedules published per location and period. Replicas of the organization (locations),
 * of people (employees, positions, pay rates) and of time's approved time off.
 */
export const schedulingService = createService({
  name: 'scheduling',
  configSchema,
  entities: [SchedulingLocation, SchedulingEmployee, ApprovedTimeOff, Availability, Shift],
  migrations,
  locationsInOrgUnits: locationsInOrgUnitsOf('scheduling'),
  consumers: () => [...orgReplicaConsumers('scheduling'), ...employeeReplicaConsumers('scheduling'), ...timeOffConsumers, ...shiftConsumers],
  routes: (svc) => [...availabilityRoutes(), ...shiftRoutes(svc)],
});
