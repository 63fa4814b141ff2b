import type { SalesTransaction as SalesTransactionDto } from '@bop/contracts';
import type { SalesTransaction } from './entities';
import { formatMoney } from './money';

export function transactionDto(t: SalesTransaction): SalesTransactionDto {
  return {
    id: t.id,
    source: t.source,
    externalId: t.externalId,
    locationId: t.locationId,
    occurredAt: t.occurredAt.toISOString(),
    businessDay: t.businessDay,
    type: t.type as SalesTransactionDto['type'],
    status: t.status as SalesTransactionDto['status'],
    channel: t.channel ?? null,
    registerId: t.registerId ?? null,
    employeeExternalId: t.employeeExternalId ?? null,
    lines: t.lines,
    tenders: t.tenders as SalesTransactionDto['tenders'],
    // numeric(18,6) reads back as "12.500000"
    subtotal: formatMoney(t.subtotal, t.currency),
    tax: formatMoney(t.tax, t.currency),
    total: formatMoney(t.total, t.currency),
    currency: t.currency,
    refundOf: t.refundOf ?? null,
    version: t.version,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
