import { defineOperations } from '../operation-types';
import { employeeOperations } from './employees';
import { documentOperations } from './documents';
import { profileOperations } from './profile';

export * from './employees';
export * from './internal';
export * from './documents';
export * from './profile';

export const peopleOperations = defineOperations({
  ...employeeOperations,
  ...documentOperations,
  ...profileOperations,
});
