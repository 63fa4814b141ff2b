import { SalesTransactionInput } from '@bop/contracts';
import { ApiError, ingestBatch, route, zodFieldErrors, type BaseConfig, type IngestTarget, type PreparedRecord, type RouteDef, type ServiceRuntime } from '@bop/shared';
import { checkTransaction } from '../domain/totals';
import { normalizeTransaction, transactionRow } from '../domain/normalize';
import { locationFor, resolveLocations } from '../locations';
import { isValid, type Candidate, type StepContext, type TransactionRow } from '../pipeline';
import { markDaysForRebuild, refuseWhereSummariesWereSent } from '../summaries/steps';
import { matchItems, recordUnmappedItems } from '../items/steps';
import { checkRefundsAndVoids, holdLockedDays, storeHeldRecords } from '../review/steps';

/** sales.transactions as the kit's batch upsert writes it (snake_case columns of the migration). */
export const transactionsTarget: IngestTarget = {
  schema: 'sales',
  table: 'transactions',
  idKind: 'salesTransaction',
  aggregateType: 'sales_transaction',
  columns: {
    location_id: 'text',
    occurred_at: 'timestamptz',
    business_day: 'date',
    type: 'text',
    status: 'text',
    channel: 'text',
    register_id: 'text',
    employee_external_id: 'text',
    subtotal: 'numeric',
    tax: 'numeric',
    total: 'numeric',
    currency: 'text',
    refund_of: 'text',
    lines: 'jsonb',
    tenders: 'jsonb',
  },
};

/** The record as consumers (inventory, cash, insights) read it from `sales.transaction.recorded`: every line and tender. */
export function recordedObject(id: string, source: string, externalId: string, r: TransactionRow) {
  return {
    id,
    source,
    externalId,
    locationId: r.location_id,
    occurredAt: r.occurred_at,
    businessDay: r.business_day,
    type: r.type,
    status: r.status,
    channel: r.channel,
    registerId: r.register_id,
    employeeExternalId: r.employee_external_id,
    lines: r.lines,
    tenders: r.tenders,
    subtotal: r.subtotal,
    tax: r.tax,
    total: r.total,
    currency: r.currency,
    refundOf: r.refund_of,
  };
}

/** Schema, location and arithmetic of each record on its own (no transaction needed). */
async function validate(ctx: { em: StepContext['em'] }, records: unknown[]): Promise<Candidate[]> {
  const parsed = records.map((raw) => SalesTransactionInput.safeParse(raw));
  const locations = await resolveLocations(ctx.em, parsed.flatMap((p) => (p.success ? [p.data] : [])));
  return records.map((raw, index) => {
    const rawExternalId = (raw as { externalId?: unknown } | null)?.externalId;
    const c: Candidate = { index, externalId: typeof rawExternalId === 'string' && rawExternalId.length > 0 ? rawExternalId : null, errors: [], warnings: [] };
    const p = parsed[index];
    if (!p.success) {
      c.errors.push(...zodFieldErrors(p.error));
      return c;
    }
    c.input = p.data;
    const at = locationFor(locations, p.data);
    if ('error' in at) {
      c.errors.push(at.error);
      return c;
    }
    c.location = at.location;
    c.warnings.push(...at.warnings);
    c.errors.push(...checkTransaction(p.data));
    if (c.errors.length === 0) c.normalized = normalizeTransaction(p.data, at.location);
    return c;
  });
}

export const transactionBatchRoutes = (svc: ServiceRuntime<BaseConfig & { API_MAX_BATCH_SIZE: number }>): RouteDef[] => [
  // spec: ingestion rules 1–9; Batch result. Each record is judged on its own; 202 = stored.
  route('POST /sales/transactions:batch', async (ctx) => {
    const { source, transactions: records } = ctx.body;
    const max = svc.config.API_MAX_BATCH_SIZE;
    if (records.length > max) {
      throw new ApiError('payload_too_large', `A batch holds at most ${max} records (API_MAX_BATCH_SIZE); this one has ${records.length}. Split it.`, [
        { path: 'transactions', message: `At most ${max} records.` },
      ]);
    }
    const candidates = await validate(ctx, records);
    const now = new Date();
    const result = await ctx.em.transactional(async (em) => {
      const step: StepContext = { em, source, now };
      // each step sees only what is still valid after the steps before it
      for (const run of [refuseWhereSummariesWereSent, checkRefundsAndVoids, matchItems, holdLockedDays]) {
        const valid = candidates.filter(isValid);
        if (valid.length > 0) await run(step, valid);
      }
      const prepared: PreparedRecord<TransactionRow>[] = candidates.map((c) => ({
        index: c.index,
        externalId: c.externalId,
        errors: c.errors,
        warnings: c.warnings.length > 0 ? c.warnings : undefined,
        ...(isValid(c) ? { row: transactionRow(c.normalized), hash: c.normalized.contentHash, divert: c.hold !== undefined } : {}),
      }));
      return ingestBatch(em, {
        target: transactionsTarget,
        source,
        records: prepared,
        actor: ctx.principal,
        area: 'sales',
        endpoint: 'POST /sales/transactions:batch',
        now,
        eventsFor: (s) => [{ type: 'sales.transaction.recorded', locationId: s.row.location_id, object: recordedObject(s.id, source, s.externalId, s.row) }],
        divert: (tem, held) => storeHeldRecords(tem, source, held),
        afterStore: async (tem, stored) => {
          const events = [];
          for (const run of [recordUnmappedItems, markDaysForRebuild]) events.push(...(await run({ ...step, em: tem }, stored)));
          return events;
        },
      });
    });
    return { status: 202, body: result };
  }),
];
