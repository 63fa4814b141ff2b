import { defineOperations } from '../operation-types';
import { availabilityOperations } from './availability';
import { shiftOperations } from './shifts';
import { swapOperations } from './swaps';
import { demandOperations } from './demand';
import { staffingOperations } from './staffing';
import { scheduleOperations } from './schedules';

export * from './availability';
export * from './shifts';
export * from './swaps';
export * from './demand';
export * from './staffing';
export * from './schedules';

export const schedulingOperations = defineOperations({
  ...availabilityOperations,
  ...shiftOperations,
  ...swapOperations,
  ...demandOperations,
  ...staffingOperations,
  ...scheduleOperations,
});
