import type { MigrationEntry } from '@bop/shared';
import { Migration20261124110000 } from './Migration20261124110000';
import { Migration20261201100000 } from './Migration20261201100000';

export const migrations: MigrationEntry[] = [
  // organization replica, suppliers and catalogs, purchase orders, supplier invoices
  { name: 'Migration20261124110000', class: Migration20261124110000 },
  // suppliers, purchase orders, supplier invoices: change_xid (commit-safe updatedSince)
  { name: 'Migration20261201100000', class: Migration20261201100000 },
];
