import { defineOperations } from '../operation-types';
import { formOperations } from './forms';
import { submissionOperations } from './submissions';
import { correctiveActionOperations } from './corrective-actions';
import { sensorOperations } from './sensors';

export * from './internal';
export * from './forms';
export * from './submissions';
export * from './corrective-actions';
export * from './sensors';

/** The operations service's contracts: forms, checklists and audits, corrective actions, sensors. */
export const complianceOperations = defineOperations({
  ...formOperations,
  ...submissionOperations,
  ...correctiveActionOperations,
  ...sensorOperations,
});
