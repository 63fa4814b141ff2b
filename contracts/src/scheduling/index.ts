import { defineOperations } from '../operation-types';
import { availabilityOperations } from './availability';
import { shiftOperations } from './shifts';

export * from './availability';
export * from './shifts';

export const schedulingOperations = defineOperations({
  ...availabilityOperations,
  ...shiftOperations,
});
