import { defineOperations } from '../operation-types';
import { purchasingSuppliersOperations } from './suppliers';
import { purchasingOrdersOperations } from './orders';
import { purchasingInvoicesOperations } from './invoices';
import { purchasingSuggestedOperations } from './suggested';

export * from './common';
export * from './suppliers';
export * from './orders';
export * from './invoices';
export * from './suggested';
export * from './internal';

export const purchasingOperations = defineOperations({
  ...purchasingSuppliersOperations,
  ...purchasingOrdersOperations,
  ...purchasingInvoicesOperations,
  ...purchasingSuggestedOperations,
});
