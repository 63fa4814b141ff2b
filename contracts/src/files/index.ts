import { defineOperations } from '../operation-types';
import { attachmentOperations } from './attachments';

export * from './attachments';
export * from './internal';

export const filesOperations = defineOperations({
  ...attachmentOperations,
});
