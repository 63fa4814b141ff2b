import { defineOperations } from '../operation-types';
import { salesTransactionOperations } from './transactions';
import { salesItemOperations } from './items';
import { salesSummaryOperations } from './summaries';
import { salesOrderOperations } from './orders';
import { salesReviewOperations } from './review';
import { salesCustomerOperations } from './customers';
import { salesInvoiceOperations } from './invoices';

export * from './transactions';
export * from './items';
export * from './summaries';
export * from './orders';
export * from './review';
export * from './customers';
export * from './invoices';

export const salesOperations = defineOperations({
  ...salesTransactionOperations,
  ...salesItemOperations,
  ...salesSummaryOperations,
  ...salesOrderOperations,
  ...salesReviewOperations,
  ...salesCustomerOperations,
  ...salesInvoiceOperations,
});
