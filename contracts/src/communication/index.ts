import { defineOperations } from '../operation-types';
import { announcementOperations } from './announcements';
import { recognitionOperations } from './recognitions';
import { displayMetricOperations } from './display-metrics';
import { channelOperations } from './channels';
import { displayScreenOperations } from './display-screens';
import { notificationOperations } from './notifications';

export * from './announcements';
export * from './recognitions';
export * from './display-metrics';
export * from './channels';
export * from './display-screens';

export * from './notifications';

/** The communication service's contracts: announcements and their acknowledgements, recognitions, display metrics, channels and messages, display screens, notifications and their preferences. */
export const communicationOperations = defineOperations({
  ...announcementOperations,
  ...recognitionOperations,
  ...displayMetricOperations,
  ...channelOperations,
  ...displayScreenOperations,
  ...notificationOperations,
});
