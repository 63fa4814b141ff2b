import type { MigrationEntry } from '@bop/shared';
import { Migration20261129100000 } from './Migration20261129100000';
import { Migration20261129110000 } from './Migration20261129110000';
import { Migration20261129120000 } from './Migration20261129120000';
import { Migration20261129125000 } from './Migration20261129125000';
import { Migration20261130120500 } from './Migration20261130120500';
import { Migration20261201090000 } from './Migration20261201090000';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  // organization and employee replicas, approved time off, availability and shifts
  { name: 'Migration20261129100000', class: Migration20261129100000 },
  // shift swaps
  { name: 'Migration20261129110000', class: Migration20261129110000 },
  // demand drivers (fed and built from sales), forecast adjustments, special days
  { name: 'Migration20261129120000', class: Migration20261129120000 },
  // special days per location as well as company-wide
  { name: 'Migration20261129125000', class: Migration20261129125000 },
  // forecasts fitted in the background, stored per location and driver
  { name: 'Migration20261130120500', class: Migration20261130120500 },
  // a series whose fit keeps failing is retried with backoff
  { name: 'Migration20261201090000', class: Migration20261201090000 },
  // shifts, availability, shift swaps, staffing rules and demand drivers: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
