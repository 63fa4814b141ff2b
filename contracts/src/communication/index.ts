import { defineOperations } from '../operation-types';
import { announcementOperations } from './announcements';
import { recognitionOperations } from './recognitions';
import { displayMetricOperations } from './display-metrics';
import { channelOperations } from './channels';

export * from './announcements';
export * from './recognitions';
export * from './display-metrics';
export * from './channels';

/** The communication service's contracts: announcements and their acknowledgements, recognitions, display metrics, channels and messages. */
export const communicationOperations = defineOperations({
  ...announcementOperations,
  ...recognitionOperations,
  ...displayMetricOperations,
  ...channelOperations,
});
