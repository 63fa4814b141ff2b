import { defineOperations } from '../operation-types';
import { kpiOperations } from './kpis';
import { reportOperations } from './reports';

export * from './kpis';
export * from './reports';

/** The insights service's contracts: KPIs and reports from its read models, report exports. */
export const insightsOperations = defineOperations({
  ...kpiOperations,
  ...reportOperations,
});
