import { defineOperations } from '../operation-types';
import { announcementOperations } from './announcements';
import { recognitionOperations } from './recognitions';
import { displayMetricOperations } from './display-metrics';
import { channelOperations } from './channels';
import { displayScreenOperations } from './display-screens';

export * from './announcements';
export * from './recognitions';
export * from './display-metrics';
export * from './channels';
export * from './display-screens';

/** The communication service's contracts: announcements and their acknowledgements, recognitions, display metrics, channels and messages, display screens. */
export const communicationOperations = defineOperations({
  ...announcementOperations,
  ...recognitionOperations,
  ...displayMetricOperations,
  ...channelOperations,
  ...displayScreenOperations,
});
