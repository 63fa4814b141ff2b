import type { MigrationEntry } from '@bop/shared';
import { Migration20261121140000 } from './Migration20261121140000';

export const migrations: MigrationEntry[] = [{ name: 'Migration20261121140000', class: Migration20261121140000 }];
