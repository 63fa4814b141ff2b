import type { MigrationEntry } from '@bop/shared';
import { Migration20261123110000 } from './Migration20261123110000';
import { Migration20261123120000 } from './Migration20261123120000';
import { Migration20261123130000 } from './Migration20261123130000';
import { Migration20261123140000 } from './Migration20261123140000';
import { Migration20261123150000 } from './Migration20261123150000';
import { Migration20261123160000 } from './Migration20261123160000';
import { Migration20261123170000 } from './Migration20261123170000';
import { Migration20261123190000 } from './Migration20261123190000';
import { Migration20261124120000 } from './Migration20261124120000';
import { Migration20261201100000 } from './Migration20261201100000';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  // organization replica, items, reference data, the stock ledger and levels, recipes, counts, transfers
  { name: 'Migration20261123110000', class: Migration20261123110000 },
  // items area: constraints and indexes
  { name: 'Migration20261123120000', class: Migration20261123120000 },
  // stock area (adjustments, waste, levels): constraints and indexes
  { name: 'Migration20261123130000', class: Migration20261123130000 },
  // usage recipes and depletion: constraints and indexes
  { name: 'Migration20261123140000', class: Migration20261123140000 },
  // stock counts: constraints and indexes
  { name: 'Migration20261123150000', class: Migration20261123150000 },
  // transfers: constraints and indexes
  { name: 'Migration20261123160000', class: Migration20261123160000 },
  // stock held for online sales orders (reserve, ship, release)
  { name: 'Migration20261123170000', class: Migration20261123170000 },
  // the ledger checks items per posting (levels), not per movement row
  { name: 'Migration20261123190000', class: Migration20261123190000 },
  // the value of stock on hand kept with each level (the sum of its movements' values)
  { name: 'Migration20261124120000', class: Migration20261124120000 },
  // items, stock levels: change_xid (commit-safe updatedSince)
  { name: 'Migration20261201100000', class: Migration20261201100000 },
  // item categories, storage areas, stock counts and transfers: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
