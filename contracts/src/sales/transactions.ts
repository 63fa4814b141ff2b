import { z } from '../zod';
import { BatchResult, ListQuery, Timestamp, listEnvelope } from '../common';

const SUPPORTED_CURRENCIES = new Set<string>(Intl.supportedValuesOf('currency'));

/** A decimal string (money or quantity); numeric(18,6)-compatible. JSON numbers are refused, never rounded. */
export const SalesDecimal = z
  .string({ error: (iss) => (typeof iss.input === 'number' ? 'send decimals as strings' : 'Required decimal string.') })
  .regex(/^-?\d{1,15}(\.\d{1,6})?$/, 'Must be a decimal string such as "12.50" (up to 15 digits, 6 decimals).')
  .openapi({ example: '12.50' });

export const SalesCurrency = z
  .string()
  .refine((c) => /^[A-Z]{3}$/.test(c) && SUPPORTED_CURRENCIES.has(c), { message: 'Must be an ISO 4217 currency code such as USD.' })
  .openapi({ example: 'USD' });

const Rfc3339 = z.iso.datetime({ offset: true });

/**
 * An ingested instant sent in UTC (`Z` or `+00:00`), spec: ingestion rule 8; `utcMessage` names the
 * field for the refusal of another offset. (The RFC 3339 check is built once: hot path.)
 */
export function utcTimestamp(utcMessage: string) {
  return z
    .string()
    .superRefine((value, ctx) => {
      if (!Rfc3339.safeParse(value).success) {
        ctx.addIssue({ code: 'custom', message: 'Must be an RFC 3339 timestamp such as 2026-11-21T09:30:00Z.' });
      } else if (!/(Z|\+00:00)$/i.test(value)) {
        ctx.addIssue({ code: 'custom', message: utcMessage });
      }
    })
    .openapi({ example: '2026-11-21T09:30:00Z' });
}

export const UtcTimestamp = utcTimestamp('send occurredAt in UTC');

export const SalesTransactionType = z.enum(['sale', 'refund']);
export const SalesTransactionStatus = z.enum(['completed', 'voided']);
export const TenderType = z.enum(['cash', 'card', 'digital_wallet', 'gift_card', 'voucher', 'account', 'platform', 'other']);

export const SalesLineInput = z.strictObject({
  itemSku: z.string().min(1).max(100).optional(),
  itemBarcode: z.string().min(1).max(100).optional(),
  itemExternalId: z.string().min(1).max(200).optional(),
  name: z.string().max(200).optional(),
  quantity: SalesDecimal,
  unitPrice: SalesDecimal,
  discount: SalesDecimal.default('0'),
  tax: SalesDecimal.default('0'),
});

export const SalesTenderInput = z
  .strictObject({
    type: TenderType,
    amount: SalesDecimal,
    /** cash only (checked by the service with path `tenders[i].change`) */
    change: SalesDecimal.optional(),
    /** the platform's name; required when type is `platform` */
    platform: z.string().min(1).max(100).optional(),
  })
  .superRefine((t, ctx) => {
    if (t.type === 'platform' && !t.platform) ctx.addIssue({ code: 'custom', path: ['platform'], message: 'A platform tender names its platform.' });
  });

/** One record of `POST /sales/transactions:batch`, as sent. */
export const SalesTransactionInput = z
  .strictObject({
    externalId: z.string().min(1).max(200),
    locationId: z.string().min(1).max(64).optional(),
    locationExternalId: z.string().min(1).max(200).optional(),
    occurredAt: UtcTimestamp,
    type: SalesTransactionType.default('sale'),
    status: SalesTransactionStatus.default('completed'),
    channel: z.string().min(1).max(40).optional().openapi({ example: 'in_store' }),
    registerId: z.string().min(1).max(100).optional(),
    employeeExternalId: z.string().min(1).max(200).optional(),
    lines: z.array(SalesLineInput).max(1000),
    tenders: z.array(SalesTenderInput).max(100),
    subtotal: SalesDecimal,
    tax: SalesDecimal,
    total: SalesDecimal,
    currency: SalesCurrency,
    refundOf: z.string().min(1).max(200).optional(),
  })
  .superRefine((t, ctx) => {
    // spec: ingestion rule 2
    if ((t.locationId === undefined) === (t.locationExternalId === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['locationId'], message: 'Send exactly one of locationId or locationExternalId.' });
    }
    if (t.type === 'sale' && t.lines.length === 0) ctx.addIssue({ code: 'custom', path: ['lines'], message: 'A sale has at least one line.' });
  })
  .openapi('SalesTransactionInput');
export type SalesTransactionInput = z.output<typeof SalesTransactionInput>;

/** Body of `POST /sales/transactions:batch`; each record is validated on its own (per-record results). */
export const SalesTransactionBatch = z
  .strictObject({
    source: z.string().trim().min(1).max(100).openapi({ description: 'a stable label per system and location', example: 'square-store-12' }),
    transactions: z.array(z.unknown()).min(1).max(100_000).openapi({ description: 'SalesTransactionInput records; at most API_MAX_BATCH_SIZE (1,000 by default)' }),
  })
  .openapi('SalesTransactionBatch');

// the Batch result of every ingestion endpoint lives in common.ts (BatchResult, BatchRecordResult)

export const SalesLine = z.object({
  itemSku: z.string().nullable(),
  itemBarcode: z.string().nullable(),
  itemExternalId: z.string().nullable(),
  /** null while the line's item is unmatched (spec: ingestion rule 3) */
  itemId: z.string().nullable(),
  name: z.string().nullable(),
  quantity: z.string(),
  unitPrice: z.string(),
  discount: z.string(),
  tax: z.string(),
  /** quantity × unitPrice − discount (tax excluded) */
  lineTotal: z.string(),
});

export const SalesTender = z.object({
  type: TenderType,
  amount: z.string(),
  change: z.string().nullable(),
  platform: z.string().nullable(),
});

export const SalesTransaction = z
  .object({
    id: z.string().openapi({ example: 'stx_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    source: z.string(),
    externalId: z.string(),
    locationId: z.string(),
    occurredAt: z.string(),
    businessDay: z.string().openapi({ example: '2026-11-20' }),
    type: SalesTransactionType,
    status: SalesTransactionStatus,
    channel: z.string().nullable(),
    registerId: z.string().nullable(),
    employeeExternalId: z.string().nullable(),
    lines: z.array(SalesLine),
    tenders: z.array(SalesTender),
    subtotal: z.string(),
    tax: z.string(),
    total: z.string(),
    currency: z.string(),
    refundOf: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SalesTransaction');
export type SalesTransaction = z.output<typeof SalesTransaction>;

const IsoDay = z.iso.date();

export const SalesTransactionListQuery = ListQuery.extend({
  source: z.string().min(1).max(100).optional(),
  updatedSince: Timestamp.optional(),
  locationId: z.string().min(1).max(64).optional(),
  businessDayFrom: IsoDay.optional(),
  businessDayTo: IsoDay.optional(),
});

export const salesTransactionOperations = {
  'POST /sales/transactions:batch': { body: SalesTransactionBatch, response: BatchResult, status: 202 },
  'GET /sales/transactions': { query: SalesTransactionListQuery, response: listEnvelope(SalesTransaction) },
};
