import type { MigrationEntry } from '@bop/shared';
import { Migration20261126120000 } from './Migration20261126120000';
import { Migration20261126130000 } from './Migration20261126130000';
import { Migration20261201100000 } from './Migration20261201100000';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  // organization replica (locations, org units, departments), employees, pay rates, activity
  { name: 'Migration20261126120000', class: Migration20261126120000 },
  // employee documents and certifications
  { name: 'Migration20261126130000', class: Migration20261126130000 },
  // employees: change_xid (commit-safe updatedSince)
  { name: 'Migration20261201100000', class: Migration20261201100000 },
  // certifications and employee documents: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
