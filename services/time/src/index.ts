import { createService, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { configSchema } from './config';
import { migrations } from './migrations';
import { TimeLocation } from './locations/entities';
import { RuleSet } from './rules/entities';
import { ruleRoutes } from './rules/routes';

export { configSchema, type TimeConfig } from './config';

/**
 * Time and attendance. This first part holds the company's and the locations' break and overtime
 * rules as data, and the pure overtime calculator that timesheets will use (rules/overtime.ts).
 */
export const timeService = createService({
  name: 'time',
  configSchema,
  entities: [TimeLocation, RuleSet],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (time's replica of the organization)
  locationsInOrgUnits: locationsInOrgUnitsOf('time'),
  consumers: () => orgReplicaConsumers('time'),
  routes: () => ruleRoutes(),
});
