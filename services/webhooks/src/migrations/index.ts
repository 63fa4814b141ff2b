import type { MigrationEntry } from '@bop/shared';
import { Migration20261121100000 } from './Migration20261121100000';
import { Migration20261125050000 } from './Migration20261125050000';
import { Migration20261125170000 } from './Migration20261125170000';
import { Migration20261129000000 } from './Migration20261129000000';
import { Migration20261204100000 } from './Migration20261204100000';
import { Migration20261205200000 } from './Migration20261205200000';
import { Migration20261206100000 } from './Migration20261206100000';

export const migrations: MigrationEntry[] = [
  { name: 'Migration20261121100000', class: Migration20261121100000 },
  { name: 'Migration20261125050000', class: Migration20261125050000 },
  { name: 'Migration20261125170000', class: Migration20261125170000 },
  { name: 'Migration20261129000000', class: Migration20261129000000 },
  { name: 'Migration20261204100000', class: Migration20261204100000 },
  // endpoints and replays: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
  // deliveries: change_xid (commit-safe updatedSince), moved only by what the list shows
  { name: 'Migration20261206100000', class: Migration20261206100000 },
];
