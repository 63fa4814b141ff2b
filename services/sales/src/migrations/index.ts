import type { MigrationEntry } from '@bop/shared';
import { Migration20261121140000 } from './Migration20261121140000';
import { Migration20261122100000 } from './Migration20261122100000';
import { Migration20261122110000 } from './Migration20261122110000';
import { Migration20261122120000 } from './Migration20261122120000';
import { Migration20261122130000 } from './Migration20261122130000';
import { Migration20261122140000 } from './Migration20261122140000';
import { Migration20261122150000 } from './Migration20261122150000';
import { Migration20261122160000 } from './Migration20261122160000';
import { Migration20261122170000 } from './Migration20261122170000';
import { Migration20261123100000 } from './Migration20261123100000';
import { Migration20261123180000 } from './Migration20261123180000';
import { Migration20261128130000 } from './Migration20261128130000';
import { Migration20261128140000 } from './Migration20261128140000';
import { Migration20261201100000 } from './Migration20261201100000';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  { name: 'Migration20261121140000', class: Migration20261121140000 },
  // items replica, item mappings, unmapped items
  { name: 'Migration20261122100000', class: Migration20261122100000 },
  // sales summaries (ingested and built), source modes, days to rebuild
  { name: 'Migration20261122110000', class: Migration20261122110000 },
  // closed business days replica, review queue
  { name: 'Migration20261122120000', class: Migration20261122120000 },
  // online sales orders
  { name: 'Migration20261122130000', class: Migration20261122130000 },
  // customers, orders.customer_id (the link of online orders to customers)
  { name: 'Migration20261122140000', class: Migration20261122140000 },
  // held summaries in the review queue: record kind, record id, affected business days
  { name: 'Migration20261122150000', class: Migration20261122150000 },
  // org-unit replica and each location's org unit (org-unit reach)
  { name: 'Migration20261122160000', class: Migration20261122160000 },
  // customer invoices, their payments, the invoice-number counter
  { name: 'Migration20261122170000', class: Migration20261122170000 },
  // the transactions' unique key led by external_id (key-list lookups probe it whatever the statistics)
  { name: 'Migration20261123100000', class: Migration20261123100000 },
  // online orders: stock held by inventory (reservations) and the shipment
  { name: 'Migration20261123180000', class: Migration20261123180000 },
  // each transaction's share of its day's built summary and the running sums of each day's groups
  { name: 'Migration20261128130000', class: Migration20261128130000 },
  // a location's transactions in id order (the list's pages by location)
  { name: 'Migration20261128140000', class: Migration20261128140000 },
  // transactions, online orders, customers: change_xid (commit-safe updatedSince)
  { name: 'Migration20261201100000', class: Migration20261201100000 },
  // customer invoices, unmapped items, review items and sales summaries: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
