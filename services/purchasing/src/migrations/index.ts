import type { MigrationEntry } from '@bop/shared';
import { Migration20261124110000 } from './Migration20261124110000';

export const migrations: MigrationEntry[] = [
  // organization replica, suppliers and catalogs, purchase orders, supplier invoices
  { name: 'Migration20261124110000', class: Migration20261124110000 },
];
