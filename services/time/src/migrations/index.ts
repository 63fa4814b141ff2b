import type { MigrationEntry } from '@bop/shared';
import { Migration20261126140000 } from './Migration20261126140000';
import { Migration20261127090000 } from './Migration20261127090000';
import { Migration20261127093000 } from './Migration20261127093000';
import { Migration20261127110000 } from './Migration20261127110000';
import { Migration20261128090000 } from './Migration20261128090000';
import { Migration20261201100000 } from './Migration20261201100000';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  // organization replica, break and overtime rule sets
  { name: 'Migration20261126140000', class: Migration20261126140000 },
  // employee replica, pay periods, punches (and those held for review), timesheets and their recalculation marks
  { name: 'Migration20261127090000', class: Migration20261127090000 },
  // employees' punch correction requests
  { name: 'Migration20261127093000', class: Migration20261127093000 },
  // time off: types, policies (with earlier accrual terms), requests and the ledger of adjustments, taken and restored hours
  { name: 'Migration20261127110000', class: Migration20261127110000 },
  // the log of timesheets touched by changes, folded into the marks by the recalculation
  { name: 'Migration20261128090000', class: Migration20261128090000 },
  // punches (and held punches): change_xid (commit-safe updatedSince)
  { name: 'Migration20261201100000', class: Migration20261201100000 },
  // timesheets, pay periods, punch corrections, time-off types, policies and requests: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
