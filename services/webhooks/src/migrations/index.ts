import type { MigrationEntry } from '@bop/shared';
import { Migration20261121100000 } from './Migration20261121100000';

export const migrations: MigrationEntry[] = [{ name: 'Migration20261121100000', class: Migration20261121100000 }];
