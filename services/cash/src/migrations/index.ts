import type { MigrationEntry } from '@bop/shared';
import { Migration20261125100000 } from './Migration20261125100000';
import { Migration20261125104200 } from './Migration20261125104200';
import { Migration20261125120000 } from './Migration20261125120000';
import { Migration20261201100000 } from './Migration20261201100000';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  // organization replica, business days, sales tenders, tender totals, counts, thresholds, deposits, bank transactions, settlements
  { name: 'Migration20261125100000', class: Migration20261125100000 },
  // deposits: unmatched deposits by time, for bank matching
  { name: 'Migration20261125104200', class: Migration20261125104200 },
  // expected amounts from sales kept per day as sales arrive (read without summing the day's sales); late records by a partial index
  { name: 'Migration20261125120000', class: Migration20261125120000 },
  // deposits: change_xid (commit-safe updatedSince)
  { name: 'Migration20261201100000', class: Migration20261201100000 },
  // settlements and bank transactions: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
