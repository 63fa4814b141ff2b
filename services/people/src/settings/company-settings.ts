import { callCommand, type ServiceClient } from '@bop/shared';

/**
 * The company settings people decides by — the positions employees can work and how long an archived
 * employee's personal fields are kept — read from identity when a decision needs them (`GET
 * /internal/company-settings`), so a change applies to the very next write. A people service run
 * without a way to identity (tests of the service alone) knows neither: positions are then not checked.
 */
export interface PeopleSettings {
  positions: string[];
  employeeRetentionDays: number;
}

export async function peopleSettings(services: ServiceClient, requestId?: string): Promise<PeopleSettings | null> {
  if (!services.has('identity')) return null;
  const s = await callCommand<Partial<PeopleSettings>>(services, 'identity', 'GET', '/internal/company-settings', undefined, { what: 'read the company settings', ok: [200], requestId });
  return { positions: s.positions ?? [], employeeRetentionDays: s.employeeRetentionDays ?? 2555 };
}
