import type { MigrationEntry } from '@bop/shared';
import { Migration20261121000000 } from './Migration20261121000000';
import { Migration20261201100000 } from './Migration20261201100000';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  { name: 'Migration20261121000000', class: Migration20261121000000 },
  // locations: change_xid (commit-safe updatedSince)
  { name: 'Migration20261201100000', class: Migration20261201100000 },
  // departments and org units: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
