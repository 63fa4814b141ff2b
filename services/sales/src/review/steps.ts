import type { EntityManager, FieldError } from '@bop/shared';
import type { PreStoreStep, TransactionRow } from '../pipeline';

/** spec: ingestion rule 6 — refund and void rules that need stored data (refundOf lookup …). (stub) */
export const checkRefundsAndVoids: PreStoreStep = async () => {};

/** spec: ingestion rule 7 — records for a business day closed in cash are held for review. (stub) */
export const holdLockedDays: PreStoreStep = async () => {};

/** Stores held records in the review queue; answers their status and id in order. (stub) */
export async function storeHeldRecords(
  _em: EntityManager,
  _source: string,
  records: Array<{ index: number; externalId: string; row: TransactionRow; hash: string; warnings?: FieldError[] }>,
): Promise<Array<{ status: 'created' | 'updated' | 'unchanged'; id: string }>> {
  if (records.length > 0) throw new Error('storeHeldRecords: not built yet');
  return [];
}
