import { assertLocationInReach, route, type RouteDef, type ServiceRuntime, assertBatchSize } from '@bop/shared';
import type { CashConfig } from '../config';
import { listBankTransactions, listDeposits } from './read-store';
import { depositConflictFor, getDeposit, recordDeposit, storeBankTransactions } from './store';

/**
 * Deposits and the bank (contracts/src/cash/deposits.ts): deposits recorded by people or feeds, bank
 * transactions from the bank's feed, matched whichever arrives second. Reach: the deposit's location.
 */
export const depositsRoutes = (svc: ServiceRuntime<CashConfig>): RouteDef[] => [
  route(
    'POST /cash/deposits',
    async (ctx) => {
      const body = await recordDeposit(ctx, ctx.body);
      return { status: 201, body, headers: { Location: `/api/v1/cash/deposits/${body.id}` } };
    },
    { conflict: depositConflictFor },
  ),

  route('GET /cash/deposits', async (ctx) => ({ body: await listDeposits(ctx, ctx.query) })),

  route('GET /cash/deposits/{id}', async (ctx) => {
    const reach = ctx.reach();
    const deposit = await getDeposit(ctx, ctx.params.id);
    assertLocationInReach(reach, deposit.locationId);
    return { body: deposit };
  }),

  // spec: ingestion rules 1–5; Batch result. Each record is judged on its own; 202 = stored (and matched).
  route('POST /cash/bank-transactions', async (ctx) => {
    const { source, transactions: records } = ctx.body;
    const max = svc.config.API_MAX_BATCH_SIZE;
    assertBatchSize(records, max, 'transactions');
    return { status: 202, body: await storeBankTransactions(ctx, { source, records, endpoint: 'POST /cash/bank-transactions' }) };
  }),

  route('GET /cash/bank-transactions', async (ctx) => ({ body: await listBankTransactions(ctx, ctx.query) })),
];
