import { defineOperations } from '../operation-types';
import { announcementOperations } from './announcements';

export * from './announcements';

/** The communication service's contracts: announcements and their acknowledgements. */
export const communicationOperations = defineOperations({
  ...announcementOperations,
});
