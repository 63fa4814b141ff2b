import { SalesTransactionInput } from '@bop/contracts';
import { ApiError, ingestBatch, route, zodFieldErrors, type BaseConfig, type IngestTarget, type PreparedRecord, type RouteDef, type ServiceRuntime } from '@bop/shared';
import { checkTransaction } from '../domain/totals';
import { normalizeTransaction, transactionRow } from '../domain/normalize';
import { locationFor, resolveLocations } from '../locations';

/** sales.transactions as the kit's batch upsert writes it (snake_case columns of the migration). */
const transactions: IngestTarget = {
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

type Row = ReturnType<typeof transactionRow>;

/** The record as consumers (inventory, cash, insights) read it from `sales.transaction.recorded`: every line and tender. */
function recordedObject(id: string, source: string, externalId: string, r: Row) {
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

export const transactionBatchRoutes = (svc: ServiceRuntime<BaseConfig & { API_MAX_BATCH_SIZE: number }>): RouteDef[] => [
  // spec: ingestion rules 1–5 and 8; Batch result. Each record is judged on its own; 202 = stored.
  route('POST /sales/transactions:batch', async (ctx) => {
    const { source, transactions: records } = ctx.body;
    const max = svc.config.API_MAX_BATCH_SIZE;
    if (records.length > max) {
      throw new ApiError('payload_too_large', `A batch holds at most ${max} records (API_MAX_BATCH_SIZE); this one has ${records.length}. Split it.`, [
        { path: 'transactions', message: `At most ${max} records.` },
      ]);
    }
    const parsed = records.map((raw) => SalesTransactionInput.safeParse(raw));
    const locations = await resolveLocations(ctx.em, parsed.flatMap((p) => (p.success ? [p.data] : [])));
    const prepared: PreparedRecord<Row>[] = records.map((raw, index) => {
      const rawExternalId = (raw as { externalId?: unknown } | null)?.externalId;
      const externalId = typeof rawExternalId === 'string' && rawExternalId.length > 0 ? rawExternalId : null;
      const p = parsed[index];
      if (!p.success) return { index, externalId, errors: zodFieldErrors(p.error) };
      const at = locationFor(locations, p.data);
      if ('error' in at) return { index, externalId, errors: [at.error] };
      const errors = checkTransaction(p.data);
      if (errors.length > 0) return { index, externalId, errors, warnings: at.warnings };
      const n = normalizeTransaction(p.data, { id: at.location.id, timezone: at.location.timezone, businessDayCutoff: at.location.businessDayCutoff });
      return { index, externalId, row: transactionRow(n), warnings: at.warnings.length > 0 ? at.warnings : undefined };
    });
    const result = await ingestBatch(ctx.em, {
      target: transactions,
      source,
      records: prepared,
      actor: ctx.principal,
      area: 'sales',
      endpoint: 'POST /sales/transactions:batch',
      eventsFor: (s) => [{ type: 'sales.transaction.recorded', locationId: s.row.location_id, object: recordedObject(s.id, source, s.externalId, s.row) }],
    });
    return { status: 202, body: result };
  }),
];
