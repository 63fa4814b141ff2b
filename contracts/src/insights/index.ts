import { defineOperations } from '../operation-types';
import { kpiOperations } from './kpis';
import { recommendationOperations } from './recommendations';

export * from './kpis';
export * from './recommendations';

/** The insights service's contracts: KPIs from its read models, recommendations. */
export const insightsOperations = defineOperations({
  ...kpiOperations,
  ...recommendationOperations,
});
