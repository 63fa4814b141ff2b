import { createService, employeeReplicaConsumers, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { configSchema } from './config';
import { migrations } from './migrations';
import { InsightsLocation } from './locations/entities';
import { InsightsEmployee } from './employees/entities';
import { SalesChannelDay, SalesContribution, SalesDay, SalesInterval, SalesItemDay } from './sales/entities';
import { LaborDay, LaborHours, LaborInterval, LaborTimesheet } from './labor/entities';
import { ScheduledShift, ShiftDay } from './schedule/entities';
import { WasteRecord } from './waste/entities';
import { OverShortDay } from './cash/entities';
import { kpiRoutes } from './kpis/routes';
import { FlowDay, StockFlow, StockItem, StockOnHand } from './stock/entities';
import { OpenOrder, PurchasePrice } from './purchases/entities';
import { Recommendation } from './recommendations/entities';
import { recommendationRoutes } from './recommendations/routes';
import { recommendationEngine } from './recommendations/workers';
import { ReportExport, ReportSchedule } from './reports/entities';
import { reportRoutes } from './reports/routes';
import { reportExportWorker, reportScheduleWorker } from './reports/exports-worker';
import { reportRegistry } from './reports/registry';
import { salesByChannel, salesByDay, salesByHour, salesByItem } from './reports/sales-store';
import { laborVsSales, timesheetSummary } from './reports/labor-store';
import { overShort, wasteByReason } from './reports/cash-waste-store';
import { inventoryValuation, usageVariance } from './stock/report-store';
import { purchasePriceVariance } from './purchases/report-store';
import { forecastAccuracy } from './forecasts/report-store';
import { AlertDirty, AlertEntity, AlertRuleEntity, AlertRuleLocation, AlertState } from './alerts/entities';
import { alertRoutes } from './alerts/routes';
import { alertEvaluation } from './alerts/evaluation-worker';
import { readModelConsumers } from './rebuild/consumers';
import { Rebuild } from './rebuild/entities';
import { ForecastAdjustmentDay, ForecastDay } from './forecasts/entities';
import { personalDataInternalRoutes } from './personal-data/internal-routes';
import { DisplayFeed } from './display-feed/entities';
import { displayFeedWorker } from './display-feed/workers';

export { configSchema, type InsightsConfig } from './config';
export { rebuildReadModels, type RebuildProgress, type RebuildResult } from './rebuild/admin';

const inOrgUnits = locationsInOrgUnitsOf('insights');

/** Every report `GET /reports` lists, in that order (reports/registry.ts says how to add one). */
const reports = reportRegistry([salesByDay, salesByHour, salesByItem, salesByChannel, laborVsSales, timesheetSummary, overShort, wasteByReason, usageVariance, inventoryValuation, purchasePriceVariance, forecastAccuracy]);

/**
 * Reports and insights: read models fed by other areas' events, never by their schemas — net sales and
 * completed sales per location, business day and 15-minute interval (sales' recorded transactions),
 * hours per location, day and position and per 15-minute interval (time's calculated timesheets) priced by the pay rate in force
 * (people's rates, replicated), published shifts per location and day (scheduling's shift events), waste value (inventory's waste records), over/short of closed cash days,
 * stock flows per item and day (inventory's postings: theoretical and actual usage), stock levels, purchase prices (purchasing's
 * receipts) and open purchase orders — the KPIs over any set of locations (`GET /kpis`), and alert rules on them; reports over the same read models (`GET /reports`,
 * registry in reports/registry.ts) and their exports to CSV or XLSX, stored at the files service (`POST /report-exports`, the
 * `report-exports` worker); recommendations (`GET /recommendations`).
 */
export const insightsService = createService({
  name: 'insights',
  configSchema,
  entities: [InsightsLocation, InsightsEmployee, SalesContribution, SalesDay, SalesInterval, SalesItemDay, SalesChannelDay, ReportExport, ReportSchedule, LaborTimesheet, LaborHours, LaborInterval, LaborDay, ScheduledShift, ShiftDay, WasteRecord, OverShortDay, StockFlow, FlowDay, StockOnHand, StockItem, PurchasePrice, OpenOrder, Recommendation, AlertRuleEntity, AlertRuleLocation, AlertState, AlertDirty, AlertEntity, Rebuild, ForecastDay, ForecastAdjustmentDay, DisplayFeed],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (insights' replica of the organization)
  locationsInOrgUnits: inOrgUnits,
  consumers: () => [...orgReplicaConsumers('insights'), ...employeeReplicaConsumers('insights'), ...readModelConsumers],
  routes: () => [...kpiRoutes(inOrgUnits), ...reportRoutes(reports, inOrgUnits), ...alertRoutes(inOrgUnits), ...recommendationRoutes()],
  internalRoutes: () => personalDataInternalRoutes(),
  workers: (svc) => [reportExportWorker(svc, reports), reportScheduleWorker(svc, reports), alertEvaluation(svc), recommendationEngine(svc), displayFeedWorker(svc)],
});
