import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import { changedFields, type Work } from '@bop/shared';
import type { CompanySettingsPatch, InvoiceMatchTolerances } from '@bop/contracts';
import type { User } from '../users/entities';
import { CompanySettings } from './entities';
import { settingsView, type SettingsView } from './dto';
import { emit } from '../users/events-store';

export type SettingsPatch = z.output<typeof CompanySettingsPatch>;

const toleranceColumns = {
  quantityAbsolute: 'invoiceMatchQuantityAbsolute',
  quantityPercent: 'invoiceMatchQuantityPercent',
  priceAbsolute: 'invoiceMatchPriceAbsolute',
  pricePercent: 'invoiceMatchPricePercent',
} as const satisfies Record<keyof InvoiceMatchTolerances, keyof CompanySettings>;

export async function getSettings(w: Work): Promise<SettingsView> {
  return settingsView(await companySettings(w));
}

/** PATCH /company-settings (If-Match honoured). */
export async function updateSettings(w: Work, patch: SettingsPatch): Promise<SettingsView> {
  const row = await w.em.findOneOrFail(CompanySettings, { id: 1 }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  w.checkVersion(row.version);
  const before = settingsView(row);
  const { invoiceMatchTolerances, ...fields } = patch;
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) Object.assign(row, { [k]: v });
  // absent keeps the stored limit, null clears it
  for (const [k, column] of Object.entries(toleranceColumns)) {
    const v = invoiceMatchTolerances?.[k as keyof InvoiceMatchTolerances];
    if (v !== undefined) row[column] = v;
  }
  const previous = changedFields(before, settingsView(row));
  if (Object.keys(previous).length === 0) return before;
  row.version += 1;
  row.updatedAt = w.now;
  await w.em.flush();
  const after = settingsView(row);
  emit(w, 'company_settings.updated', { type: 'company_settings', id: 'company' }, after, previous);
  return after;
}

export async function companySettings(w: Work): Promise<CompanySettings> {
  const settings = await w.em.findOne(CompanySettings, { id: 1 });
  if (!settings) throw new Error('identity: company settings row is missing (migration not applied?)');
  return settings;
}

/** spec: Authentication rule 8, the company requires two-factor and the person has not enrolled. */
export async function mfaEnrollmentRequired(w: Work, user: User): Promise<boolean> {
  if (user.totpSecret) return false;
  return (await companySettings(w)).requireTwoFactor;
}
