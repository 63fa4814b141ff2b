import type { z } from 'zod';
import type { CompanySettings as SettingsSchema } from '@bop/contracts';
import type { CompanySettings } from './entities';

export type SettingsView = z.output<typeof SettingsSchema>;

const iso = (d: Date) => d.toISOString();

export function settingsView(s: CompanySettings): SettingsView {
  return {
    name: s.name,
    defaultCurrency: s.defaultCurrency,
    weekStart: s.weekStart as SettingsView['weekStart'],
    timezone: s.timezone,
    payPeriodFrequency: s.payPeriodFrequency as SettingsView['payPeriodFrequency'],
    payPeriodAnchorDate: s.payPeriodAnchorDate,
    purchaseOrderApprovalThreshold: s.purchaseOrderApprovalThreshold,
    requireTwoFactor: s.requireTwoFactor,
    invoiceMatchTolerances: {
      quantityAbsolute: s.invoiceMatchQuantityAbsolute ?? null,
      quantityPercent: s.invoiceMatchQuantityPercent ?? null,
      priceAbsolute: s.invoiceMatchPriceAbsolute ?? null,
      pricePercent: s.invoiceMatchPricePercent ?? null,
    },
    positions: [...s.positions],
    employeeRetentionDays: s.employeeRetentionDays,
    minRestHours: s.minRestHours,
    version: s.version,
    updatedAt: iso(s.updatedAt),
  };
}
