import { createService, employeeReplicaConsumers, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { configSchema } from './config';
import { migrations } from './migrations';
import { InsightsLocation } from './locations/entities';
import { InsightsEmployee } from './employees/entities';
import { SalesContribution, SalesDay, SalesInterval } from './sales/entities';
import { LaborHours, LaborInterval, LaborTimesheet } from './labor/entities';
import { ScheduledShift } from './schedule/entities';
import { WasteRecord } from './waste/entities';
import { OverShortDay } from './cash/entities';
import { kpiRoutes } from './kpis/routes';
import { AlertDirty, AlertEntity, AlertRuleEntity, AlertRuleLocation, AlertState } from './alerts/entities';
import { alertRoutes } from './alerts/routes';
import { alertEvaluation } from './alerts/evaluation-worker';
import { readModelConsumers } from './rebuild/consumers';
import { Rebuild } from './rebuild/entities';

export { configSchema, type InsightsConfig } from './config';
export { rebuildReadModels, type RebuildProgress, type RebuildResult } from './rebuild/admin';

const inOrgUnits = locationsInOrgUnitsOf('insights');

/**
 * Reports and insights: read models fed by other areas' events, never by their schemas — net sales and
 * completed sales per location, business day and 15-minute interval (sales' recorded transactions),
 * hours per location, day and position and per 15-minute interval (time's calculated timesheets) priced by the pay rate in force
 * (people's rates, replicated), published shifts per location and day (scheduling's shift events), waste value (inventory's waste records), over/short of closed cash days — the KPIs over any set of locations (`GET /kpis`), and alert rules on them, evaluated after the writes that move their KPI and when their window rolls over (`/alert-rules`, `GET /alerts`, `alert.triggered`).
 */
export const insightsService = createService({
  name: 'insights',
  configSchema,
  entities: [InsightsLocation, InsightsEmployee, SalesContribution, SalesDay, SalesInterval, LaborTimesheet, LaborHours, LaborInterval, ScheduledShift, WasteRecord, OverShortDay, AlertRuleEntity, AlertRuleLocation, AlertState, AlertDirty, AlertEntity, Rebuild],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (insights' replica of the organization)
  locationsInOrgUnits: inOrgUnits,
  consumers: () => [...orgReplicaConsumers('insights'), ...employeeReplicaConsumers('insights'), ...readModelConsumers],
  routes: () => [...kpiRoutes(inOrgUnits), ...alertRoutes(inOrgUnits)],
  workers: (svc) => [alertEvaluation(svc)],
});
