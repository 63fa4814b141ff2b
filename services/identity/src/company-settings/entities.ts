import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The single row of company settings (id 1). */
export const CompanySettings = defineEntity({
  name: 'CompanySettings',
  tableName: 'company_settings',
  properties: {
    id: p.integer().primary(),
    name: p.string(),
    defaultCurrency: p.string(),
    weekStart: p.string(),
    timezone: p.string(),
    payPeriodFrequency: p.string(),
    payPeriodAnchorDate: p.date(),
    purchaseOrderApprovalThreshold: p.decimal('string'),
    requireTwoFactor: p.boolean(),
    // supplier invoice matching tolerances; null = that limit is not applied
    invoiceMatchQuantityAbsolute: p.decimal('string').nullable(),
    invoiceMatchQuantityPercent: p.decimal('string').nullable(),
    invoiceMatchPriceAbsolute: p.decimal('string').nullable(),
    invoiceMatchPricePercent: p.decimal('string').nullable(),
    positions: p.json<string[]>(),
    employeeRetentionDays: p.integer(),
    minRestHours: p.integer(),
    version: p.integer(),
    updatedAt: p.datetime(),
  },
});
export type CompanySettings = InferEntity<typeof CompanySettings>;
