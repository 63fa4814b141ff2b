import { defineOperations } from '../operation-types';
import { salesTransactionOperations } from './transactions';

export * from './transactions';

export const salesOperations = defineOperations({
  ...salesTransactionOperations,
});
