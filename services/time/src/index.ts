import { createService, employeeReplicaConsumers, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { configSchema } from './config';
import { migrations } from './migrations';
import { TimeLocation } from './locations/entities';
import { TimeEmployee } from './employees/entities';
import { RuleSet } from './rules/entities';
import { ruleRoutes } from './rules/routes';
import { PayPeriod } from './pay-periods/entities';
import { payPeriodRoutes } from './pay-periods/routes';
import { HeldPunch, Punch } from './punches/entities';
import { punchRoutes } from './punches/routes';
import { Timesheet, TimesheetMark, TimesheetTouch } from './timesheets/entities';
import { timesheetRoutes } from './timesheets/routes';
import { timesheetWorkers } from './timesheets/workers';
import { PunchCorrection } from './corrections/entities';
import { correctionRoutes } from './corrections/routes';
import { personalDataInternalRoutes } from './personal-data/internal-routes';
import { TimeOffEntry, TimeOffPolicy, TimeOffRequest, TimeOffType } from './time-off/entities';
import { timeOffRoutes } from './time-off/routes';

export { configSchema, type TimeConfig } from './config';

/**
 * Time and attendance: punches from timeclocks (batch ingestion), timesheets recalculated in the
 * background by the break and overtime rules (rules as data), pay periods locked and exported for
 * payroll. Replicas of the organization (locations) and of people (employees, pay rates).
 */
export const timeService = createService({
  name: 'time',
  // the kit opens the transaction of every write and commits it with the unit's events
  configSchema,
  entities: [TimeLocation, TimeEmployee, RuleSet, PayPeriod, Punch, HeldPunch, Timesheet, PunchCorrection, TimeOffType, TimeOffPolicy, TimeOffRequest, TimeOffEntry, TimesheetMark, TimesheetTouch],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (time's replica of the organization)
  locationsInOrgUnits: locationsInOrgUnitsOf('time'),
  consumers: () => [...orgReplicaConsumers('time'), ...employeeReplicaConsumers('time')],
  workers: (svc) => timesheetWorkers(svc),
  routes: (svc) => [...ruleRoutes(), ...punchRoutes(svc), ...timesheetRoutes(), ...payPeriodRoutes(), ...correctionRoutes(), ...timeOffRoutes()],
  internalRoutes: () => personalDataInternalRoutes(),
});
