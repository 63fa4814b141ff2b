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
import { ShiftSwap } from './swaps/entities';
import { swapRoutes } from './swaps/routes';
import { swapWorkers } from './swaps/workers';
import { DemandDriver, SalesDemand, SalesInterval } from './demand/entities';
import { demandRoutes } from './demand/routes';
import { demandConsumers } from './demand/consumers';
import { ForecastAdjustment, ForecastFit, SpecialDay } from './forecasts/entities';
import { forecastFitWorker } from './forecasts/fit-worker';
import { forecastRoutes } from './forecasts/routes';
import { StaffingRule } from './staffing/entities';
import { staffingRoutes } from './staffing/routes';
import { scheduleRoutes } from './schedules/routes';

export { configSchema, type SchedulingConfig } from './config';
export * from './forecasts/model';
export * from './generate/solve';

/**
 * Scheduling and forecasting: employees' availability, shifts (draft and published, open shifts
 * claimed, swapped between employees), schedules published per location and period, demand drivers (fed, and
 * built from sales) and their forecasts. Replicas of the organization (locations),
 * of people (employees, positions, pay rates) and of time's approved time off.
 */
export const schedulingService = createService({
  name: 'scheduling',
  configSchema,
  entities: [SchedulingLocation, SchedulingEmployee, ApprovedTimeOff, Availability, Shift, ShiftSwap, DemandDriver, SalesInterval, SalesDemand, ForecastAdjustment, SpecialDay, ForecastFit, StaffingRule],
  migrations,
  locationsInOrgUnits: locationsInOrgUnitsOf('scheduling'),
  consumers: () => [...orgReplicaConsumers('scheduling'), ...employeeReplicaConsumers('scheduling'), ...timeOffConsumers, ...shiftConsumers, ...demandConsumers],
  workers: (svc) => [...swapWorkers(svc), forecastFitWorker(svc)],
  routes: (svc) => [...availabilityRoutes(), ...shiftRoutes(svc), ...swapRoutes(), ...demandRoutes(svc), ...forecastRoutes(), ...staffingRoutes(), ...scheduleRoutes(svc)],
});
