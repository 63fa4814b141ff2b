import { defineOperations } from '../operation-types';
import { kpiOperations } from './kpis';
import { alertOperations } from './alerts';

export * from './kpis';
export * from './alerts';

/** The insights service's contracts: KPIs from its read models, alert rules and their firings. */
export const insightsOperations = defineOperations({
  ...kpiOperations,
  ...alertOperations,
});
