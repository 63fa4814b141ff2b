import type { MigrationEntry } from '@bop/shared';
import { Migration20261121120000 } from './Migration20261121120000';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  { name: 'Migration20261121120000', class: Migration20261121120000 },
  // integrations: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
