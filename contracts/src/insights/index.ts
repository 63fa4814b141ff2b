import { defineOperations } from '../operation-types';
import { kpiOperations } from './kpis';

export * from './kpis';

/** The insights service's contracts: KPIs from its read models. */
export const insightsOperations = defineOperations({
  ...kpiOperations,
});
