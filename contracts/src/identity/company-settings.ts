import { z } from '../zod';
import { Timestamp } from '../common';

export const WeekStart = z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
export const PayPeriodFrequency = z.enum(['weekly', 'biweekly', 'semimonthly', 'monthly']);
export const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'Use an ISO 4217 code such as USD.');
export const IsoDate = z.iso.date().openapi({ example: '2026-01-05' });
/** money as a decimal string, never a float */
export const MoneyAmount = z
  .string()
  .regex(/^\d{1,15}(\.\d{1,4})?$/, 'Use a non-negative decimal string such as "1500.00".')
  .openapi({ example: '1500.00' });

export const CompanySettings = z
  .object({
    name: z.string(),
    defaultCurrency: z.string(),
    weekStart: WeekStart,
    payPeriodFrequency: PayPeriodFrequency,
    payPeriodAnchorDate: z.string(),
    purchaseOrderApprovalThreshold: z.string(),
    requireTwoFactor: z.boolean(),
    version: z.number().int(),
    updatedAt: Timestamp,
  })
  .openapi('CompanySettings');

export const CompanySettingsPatch = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  defaultCurrency: CurrencyCode.optional(),
  weekStart: WeekStart.optional(),
  payPeriodFrequency: PayPeriodFrequency.optional(),
  payPeriodAnchorDate: IsoDate.optional(),
  purchaseOrderApprovalThreshold: MoneyAmount.optional(),
  requireTwoFactor: z.boolean().optional(),
});
