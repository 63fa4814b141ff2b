import { z } from '../zod';

/**
 * Shared shapes of cash management. Money is a decimal string in the company currency, to the cent;
 * signed where money can flow either way (refund tenders, bank debits).
 */
const money = (pattern: RegExp, message: string) =>
  z.string({ error: (iss) => (typeof iss.input === 'number' ? 'send decimals as strings' : 'Required decimal string.') }).regex(pattern, message);

/** an amount of zero or more, to the cent */
export const CashAmount = money(/^\d{1,13}(\.\d{1,2})?$/, 'Must be a decimal string such as "120.50" (up to 2 decimals).').openapi({ example: '120.50' });
/** a signed amount, to the cent */
export const SignedCashAmount = money(/^-?\d{1,13}(\.\d{1,2})?$/, 'Must be a decimal string such as "120.50" or "-4.00" (up to 2 decimals).').openapi({ example: '120.50' });
/** a percentage, 0 to 100, up to 4 decimals */
export const Percent = money(/^\d{1,3}(\.\d{1,4})?$/, 'Must be a decimal string such as "2.5" (a percentage).')
  .refine((v) => Number(v) <= 100, { message: 'Must be at most 100.' })
  .openapi({ example: '2.5' });

export const CashRef = z.string().trim().min(1).max(64);
export const cashText = (max: number) => z.string().trim().min(1).max(max);
export const BusinessDay = z.iso.date().openapi({ example: '2026-11-20' });

/** spec: Tender types (`platform` carries a platform name). */
export const CashTenderType = z.enum(['cash', 'card', 'digital_wallet', 'gift_card', 'voucher', 'account', 'platform', 'other']);
export type CashTenderType = z.output<typeof CashTenderType>;

/** Where an expected amount comes from: sales' transactions, or tender totals sent with `POST /cash/tenders` (which win). */
export const ExpectedSource = z.enum(['sales', 'tender_totals']);

/** A record that arrived for a business day already closed: stored and listed for review, not in the locked figures. */
export const LateReview = z
  .object({
    /** `pending` until the day is reopened (then its figures include it: `applied`) */
    status: z.enum(['pending', 'applied']),
    flaggedAt: z.string(),
  })
  .openapi('CashLateReview');
