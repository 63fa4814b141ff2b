import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { changedFields } from '@bop/shared';
import { CompanySettings } from '../entities';
import { companySettings } from './access';
import { settingsView, type SettingsView } from './views';
import { emit, type Actor } from './events';
import type { VersionCheck } from './users';

export type SettingsPatch = Partial<Omit<SettingsView, 'version' | 'updatedAt'>>;

export async function getSettings(em: EntityManager): Promise<SettingsView> {
  return settingsView(await companySettings(em));
}

/** PATCH /company-settings (If-Match honoured). */
export async function updateSettings(em: EntityManager, patch: SettingsPatch, actor: Actor, opts: VersionCheck = {}): Promise<SettingsView> {
  return em.transactional(async (tem) => {
    const row = await tem.findOneOrFail(CompanySettings, { id: 1 }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    opts.expectVersion?.(row.version);
    const before = settingsView(row);
    for (const [k, v] of Object.entries(patch)) if (v !== undefined) Object.assign(row, { [k]: v });
    const previous = changedFields(before, settingsView(row));
    if (Object.keys(previous).length === 0) return before;
    row.version += 1;
    row.updatedAt = new Date();
    await tem.flush();
    const after = settingsView(row);
    emit(tem, 'company_settings.updated', { type: 'company_settings', id: 'company' }, after, actor, previous);
    return after;
  });
}
