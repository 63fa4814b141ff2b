import { defineOperations } from '../operation-types';
import { kpiOperations } from './kpis';
import { recommendationOperations } from './recommendations';
import { reportOperations } from './reports';
import { alertOperations } from './alerts';

export * from './kpis';
export * from './recommendations';
export * from './reports';
export * from './alerts';

/** The insights service's contracts: KPIs and reports from its read models, report exports, alert rules and their firings, recommendations. */
export const insightsOperations = defineOperations({
  ...kpiOperations,
  ...reportOperations,
  ...alertOperations,
  ...recommendationOperations,
});
