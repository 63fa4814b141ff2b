import { SalesTransactionInput } from '@bop/contracts';
import { parseBatchRecords, route, type RouteDef, type ServiceRuntime, assertBatchSize, type Work } from '@bop/shared';
import type { SalesConfig } from '../config';
import { normalizeTransaction } from './normalize';
import { locateRecords } from '../locations/store';
import type { Candidate } from './pipeline';
import { storeTransactions } from './store';

/** Schema and location of each record on its own, and its canonical form. */
async function validate(w: Work, records: unknown[]): Promise<Candidate[]> {
  const parsed = parseBatchRecords(SalesTransactionInput, records);
  const located = await locateRecords(w, parsed);
  return parsed.map((p, index) => {
    const c: Candidate = { index, externalId: p.externalId, errors: p.errors, warnings: [] };
    const at = located[index];
    if (!p.data || !at) return c;
    c.input = p.data;
    if ('error' in at) {
      c.errors.push(at.error);
      return c;
    }
    c.location = at.location;
    c.warnings.push(...at.warnings);
    // the arithmetic (domain/totals.ts) is the first pipeline step: a re-send of stored content skips it
    c.normalized = normalizeTransaction(p.data, at.location, { lineTotals: false });
    return c;
  });
}

export const transactionBatchRoutes = (svc: ServiceRuntime<SalesConfig>): RouteDef[] => [
  // spec: ingestion rules 1–9; Batch result. Each record is judged on its own; 202 = stored.
  route('POST /sales/transactions:batch', async (ctx) => {
    const { source, transactions: records } = ctx.body;
    const max = svc.config.API_MAX_BATCH_SIZE;
    assertBatchSize(records, max, 'transactions');
    const candidates = await validate(ctx, records);
    const result = await storeTransactions(ctx, { source, candidates, endpoint: 'POST /sales/transactions:batch' });
    return { status: 202, body: result };
  }),
];
