import { defineOperations } from '../operation-types';
import { ruleOperations } from './rules';

export * from './rules';

export const timeOperations = defineOperations({
  ...ruleOperations,
});
