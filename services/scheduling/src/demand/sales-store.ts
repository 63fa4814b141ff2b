import { lockForTransaction, sqlList, sqlQuery, type Work } from '@bop/shared';
import { markSeriesStale } from '../forecasts/fit-store';

/** What one sales transaction adds to its location's 15-minute interval. */
export interface SalesContribution {
  transactionId: string;
  version: number;
  locationId: string;
  intervalStart: Date;
  netSales: string;
  transactions: number;
}

/**
 * Applies sales' transactions to the net sales and transaction counts per interval: a transaction's
 * newer version takes back what its older one added (another interval when its time moved, nothing
 * once voided), an older or repeated one changes nothing.
 *
 * One statement per batch of sales (every sale passes here, at the ingestion rate): the stored
 * contributions are read (every CTE sees the rows as they were before the statement), replaced where
 * the version is newer, and the differences summed into the intervals. Batches of one location are
 * applied one at a time (a lock per location), so no two read the same contribution before either
 * replaces it. Through the ORM (a locking read, entities, a flush, then the sums) a sale cost 62–64
 * µs of the service and database against 12–21 µs here (batches of 1,000 new, then re-sent, sales;
 * two alternating runs of each, 2026-11-27).
 */
export async function applySalesDemand(w: Work, incoming: SalesContribution[]): Promise<void> {
  const { em, schema } = w;
  const latest = new Map<string, SalesContribution>();
  for (const c of incoming) if ((latest.get(c.transactionId)?.version ?? -1) < c.version) latest.set(c.transactionId, c);
  if (latest.size === 0) return;
  const rows = [...latest.values()].sort((a, b) => (a.transactionId < b.transactionId ? -1 : 1));
  await lockForTransaction(em, [...new Set(rows.map((r) => `${schema}.sales_demand ${r.locationId}`))]);
  // raw SQL (bench:sql scheduling.apply-sales-demand): 80,712 µs against 306,197 through the ORM (3.8×, 5.6× in a second run: the
  // contributions read and upserted, the differences summed in code, the intervals read and upserted, against one statement)
  await sqlQuery(
    em,
    `with incoming as (
       select * from unnest(?::text[], ?::integer[], ?::text[], ?::timestamptz[], ?::numeric[], ?::integer[])
         as i("transaction_id", "version", "location_id", "interval_start", "net_sales", "transactions")
     ),
     before as (
       select s.* from "${schema}"."sales_demand" s join incoming i using ("transaction_id")
     ),
     written as (
       insert into "${schema}"."sales_demand" ("transaction_id", "version", "location_id", "interval_start", "net_sales", "transactions")
       select * from incoming
       on conflict ("transaction_id") do update
         set "version" = excluded."version", "location_id" = excluded."location_id", "interval_start" = excluded."interval_start",
             "net_sales" = excluded."net_sales", "transactions" = excluded."transactions"
         where "sales_demand"."version" < excluded."version"
       returning "transaction_id"
     ),
     deltas as (
       select i."location_id", i."interval_start", i."net_sales", i."transactions" from incoming i join written w using ("transaction_id")
       union all
       select b."location_id", b."interval_start", -b."net_sales", -b."transactions" from before b join written w using ("transaction_id")
     )
     insert into "${schema}"."sales_intervals" ("location_id", "interval_start", "net_sales", "transactions")
     select "location_id", "interval_start", sum("net_sales"), sum("transactions") from deltas group by 1, 2 order by 1, 2
     on conflict ("location_id", "interval_start") do update
       set "net_sales" = "sales_intervals"."net_sales" + excluded."net_sales", "transactions" = "sales_intervals"."transactions" + excluded."transactions"`,
    [
      sqlList(rows.map((r) => r.transactionId)),
      sqlList(rows.map((r) => r.version)),
      sqlList(rows.map((r) => r.locationId)),
      sqlList(rows.map((r) => r.intervalStart.toISOString())),
      sqlList(rows.map((r) => r.netSales)),
      sqlList(rows.map((r) => r.transactions)),
    ],
  );
  // the forecasts built from sales are fitted again (debounced by the fit worker)
  await markSeriesStale(w, rows.flatMap((r) => ['net_sales', 'transactions'].map((driver) => ({ locationId: r.locationId, driver, intervalStart: r.intervalStart }))));
}
