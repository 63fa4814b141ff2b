import type { MigrationEntry } from '@bop/shared';
import { Migration20261121060000 } from './Migration20261121060000';
import { Migration20261124100000 } from './Migration20261124100000';

export const migrations: MigrationEntry[] = [
  { name: 'Migration20261121060000', class: Migration20261121060000 },
  // company settings: supplier invoice matching tolerances
  { name: 'Migration20261124100000', class: Migration20261124100000 },
];
