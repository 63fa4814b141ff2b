import { defineOperations } from '../operation-types';
import { kpiOperations } from './kpis';
import { recommendationOperations } from './recommendations';
import { reportOperations } from './reports';

export * from './kpis';
export * from './recommendations';
export * from './reports';

/** The insights service's contracts: KPIs and reports from its read models, report exports, recommendations. */
export const insightsOperations = defineOperations({
  ...kpiOperations,
  ...reportOperations,
  ...recommendationOperations,
});
