import { defineOperations } from '../operation-types';
import { attachmentOperations } from './attachments';

export * from './attachments';

export const filesOperations = defineOperations({
  ...attachmentOperations,
});
