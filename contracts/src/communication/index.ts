import { defineOperations } from '../operation-types';
import { announcementOperations } from './announcements';
import { recognitionOperations } from './recognitions';
import { displayMetricOperations } from './display-metrics';
import { notificationOperations } from './notifications';

export * from './announcements';
export * from './recognitions';
export * from './display-metrics';
export * from './notifications';

/** The communication service's contracts: announcements and their acknowledgements, recognitions, display metrics, notifications and their preferences. */
export const communicationOperations = defineOperations({
  ...announcementOperations,
  ...recognitionOperations,
  ...displayMetricOperations,
  ...notificationOperations,
});
