import { defineOperations } from '../operation-types';
import { locationOperations } from './locations';
import { orgUnitOperations } from './org-units';
import { departmentOperations } from './departments';

export * from './locations';
export * from './org-units';
export * from './departments';
export * from './internal';

export const organizationOperations = defineOperations({
  ...locationOperations,
  ...orgUnitOperations,
  ...departmentOperations,
});
