import { z } from '../zod';
import { Timestamp } from '../common';
import { Timezone } from '../organization/locations';

export const WeekStart = z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
export const PayPeriodFrequency = z.enum(['weekly', 'biweekly', 'semimonthly', 'monthly']);
export const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'Use an ISO 4217 code such as USD.');
export const IsoDate = z.iso.date().openapi({ example: '2026-01-05' });
/** money as a decimal string, never a float */
export const MoneyAmount = z
  .string()
  .regex(/^\d{1,15}(\.\d{1,4})?$/, 'Use a non-negative decimal string such as "1500.00".')
  .openapi({ example: '1500.00' });

// No leading zeros, so Postgres' numeric hands back the very text that was stored.
const Quantity6 = z
  .string()
  .regex(/^(0|[1-9]\d{0,14})(\.\d{1,6})?$/, 'Use a non-negative decimal string with up to 6 decimals such as "0.5".')
  .openapi({ example: '0.5' });
const Money4 = z
  .string()
  .regex(/^(0|[1-9]\d{0,14})(\.\d{1,4})?$/, 'Use a non-negative decimal string with up to 4 decimals such as "0.05".')
  .openapi({ example: '0.05' });
const Percent4 = z
  .string()
  .regex(/^(100(\.0{1,4})?|(0|[1-9]\d?)(\.\d{1,4})?)$/, 'Use a percentage from "0" to "100" with up to 4 decimals such as "2.5".')
  .openapi({ example: '2.5' });

/**
 * Supplier invoice matching: how far an invoice line may differ from what was ordered/received.
 * - `quantityAbsolute`: packs (the order's units); `priceAbsolute`: money per unit;
 *   `quantityPercent` / `pricePercent`: percent of the expected figure.
 * - null means that limit is not applied; a difference is tolerated when it is within every limit
 *   that is set; when neither the absolute nor the percent limit of a kind (quantity, price) is set,
 *   only an exact match of that kind is tolerated. All null by default (exact matching).
 */
export const InvoiceMatchTolerances = z
  .object({
    quantityAbsolute: Quantity6.nullable(),
    quantityPercent: Percent4.nullable(),
    priceAbsolute: Money4.nullable(),
    pricePercent: Percent4.nullable(),
  })
  .openapi('InvoiceMatchTolerances');
export type InvoiceMatchTolerances = z.output<typeof InvoiceMatchTolerances>;

/** Each key optional: absent keeps the stored value, null clears it. */
export const InvoiceMatchTolerancesPatch = z.strictObject({
  quantityAbsolute: Quantity6.nullable().optional(),
  quantityPercent: Percent4.nullable().optional(),
  priceAbsolute: Money4.nullable().optional(),
  pricePercent: Percent4.nullable().optional(),
});

/** A position employees can work (e.g. "Line cook"), as the company names it. */
export const PositionLabel = z.string().trim().min(1).max(60).openapi({ example: 'Line cook' });

/** The company's positions, in the order given; a label listed twice (compared without case) is refused at its index. */
export const Positions = z
  .array(PositionLabel)
  .max(200)
  .superRefine((labels, ctx) => {
    const seen = new Set<string>();
    labels.forEach((label, i) => {
      const key = label.normalize('NFC').toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i], message: 'This position is already listed (positions are compared without case).' });
      seen.add(key);
    });
  });

/** Days an archived (terminated) employee's personal fields are kept before the people service anonymises them. */
export const EmployeeRetentionDays = z.number().int().min(30).max(36500).openapi({ example: 2555 });

export const CompanySettings = z
  .object({
    name: z.string(),
    defaultCurrency: z.string(),
    weekStart: WeekStart,
    timezone: z.string().openapi({ description: 'the company\'s IANA time zone, `UTC` by default: pay periods start and end in it' }),
    payPeriodFrequency: PayPeriodFrequency,
    payPeriodAnchorDate: z.string(),
    purchaseOrderApprovalThreshold: z.string(),
    requireTwoFactor: z.boolean(),
    invoiceMatchTolerances: InvoiceMatchTolerances,
    positions: z.array(z.string()).openapi({ description: 'position labels employees can work; `[]` by default' }),
    employeeRetentionDays: z.number().int().openapi({
      description: "days an archived (terminated) employee's personal fields are kept before they are anonymised; 2555 (about 7 years) by default",
    }),
    minRestHours: z.number().int().openapi({ description: 'the least rest between two shifts of an employee, in hours: a shorter one is a warning on the shift; 10 by default' }),
    version: z.number().int(),
    updatedAt: Timestamp,
  })
  .openapi('CompanySettings');

export const CompanySettingsPatch = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  defaultCurrency: CurrencyCode.optional(),
  weekStart: WeekStart.optional(),
  timezone: Timezone.optional(),
  payPeriodFrequency: PayPeriodFrequency.optional(),
  payPeriodAnchorDate: IsoDate.optional(),
  purchaseOrderApprovalThreshold: MoneyAmount.optional(),
  requireTwoFactor: z.boolean().optional(),
  invoiceMatchTolerances: InvoiceMatchTolerancesPatch.optional(),
  /** replaces the whole list */
  positions: Positions.optional(),
  employeeRetentionDays: EmployeeRetentionDays.optional(),
  minRestHours: z.number().int().min(0).max(24).optional(),
});
