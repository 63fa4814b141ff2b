import { createService, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { configSchema } from './config';
import { CashLocation } from './locations/entities';
import { migrations } from './migrations';
import { expectedConsumers } from './expected/consumers';
import { tendersRoutes } from './tenders/routes';
import { countsEntities } from './counts/entities';
import { daysEntities } from './days/entities';
import { depositsEntities } from './deposits/entities';
import { settlementsEntities } from './settlements/entities';
import { countsRoutes } from './counts/routes';
import { depositsRoutes } from './deposits/routes';
import { settlementsRoutes } from './settlements/routes';
import { rematchSettlements } from './settlements/rematch-store';
import { businessDaysRoutes } from './days/routes';

export { configSchema, type CashConfig } from './config';

/**
 * Cash management: for every location and business day, what cash and card money should exist
 * (expected/: from sales' transactions and tender totals), what was counted (counts/, with over/short
 * thresholds), deposited and seen at the bank (deposits/), paid out by processors and platforms
 * (settlements/), and the day's close that locks it all (days/), over cash's replica of organization's
 * locations (locations/). Each area lives in its own folder.
 */
export const cashService = createService({
  name: 'cash',
  configSchema,
  // the kit opens the transaction of every write and commits it with the unit's events
  entities: [CashLocation, ...countsEntities, ...daysEntities, ...depositsEntities, ...settlementsEntities],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (cash's replica of the organization)
  locationsInOrgUnits: locationsInOrgUnitsOf('cash'),
  consumers: () => [...orgReplicaConsumers('cash'), ...expectedConsumers(rematchSettlements)],
  routes: (svc) => [...tendersRoutes(svc), ...countsRoutes(), ...depositsRoutes(svc), ...settlementsRoutes(svc), ...businessDaysRoutes()],
});
