import { defineOperations } from '../operation-types';
import { announcementOperations } from './announcements';
import { recognitionOperations } from './recognitions';
import { displayMetricOperations } from './display-metrics';

export * from './announcements';
export * from './recognitions';
export * from './display-metrics';

/** The communication service's contracts: announcements and their acknowledgements, recognitions, display metrics. */
export const communicationOperations = defineOperations({
  ...announcementOperations,
  ...recognitionOperations,
  ...displayMetricOperations,
});
