import { Migration } from '@bop/shared';

/** Each stored transaction's contribution: a voided one keeps its group (members) but adds nothing; a line-less one counts its subtotal. */
export const FILL_CONTRIBUTIONS = `insert into "sales"."summary_contributions"
      select t."id", t."location_id", t."source", t."business_day", t."currency", coalesce(t."channel", ''),
        case when t."status" <> 'completed' then 0
             when jsonb_array_length(coalesce(t."lines", '[]')) > 0 then (select sum((l->>'quantity')::numeric * (l->>'unitPrice')::numeric) from jsonb_array_elements(t."lines") l)
             else t."subtotal" end,
        case when t."status" <> 'completed' then 0 else coalesce((select sum(coalesce((l->>'discount')::numeric, 0)) from jsonb_array_elements(coalesce(t."lines", '[]')) l), 0) end,
        case when t."status" <> 'completed' then 0 else t."tax" end,
        case when t."status" = 'completed' and t."type" = 'sale' then 1 else 0 end,
        case when t."status" = 'completed' then 1 else 0 end
      from "sales"."transactions" t where t."business_day" is not null`;

/** Each group's sums over its contributions. */
export const FILL_GROUPS = `insert into "sales"."summary_groups"
      select "location_id", "source", "business_day", "currency", "channel", sum("gross"), sum("discounts"), sum("tax"), sum("sales"), sum("completed"), count(*)
      from "sales"."summary_contributions" group by 1, 2, 3, 4, 5`;

/**
 * sales: what each transaction adds to its day's built summary (`summary_contributions`) and the
 * running sums of each (location, source, business day, currency, channel) (`summary_groups`): the
 * batch that stores a transaction appends the difference it makes (`summary_group_deltas`, insert
 * only: concurrent batches of one day wait for no lock), the rebuild of a day folds them into the
 * sums and reads its few groups instead of every transaction of the day; contributions and sums are
 * filled here from the transactions already stored.
 */
export class Migration20261128130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sales"."summary_contributions" (
      "transaction_id" varchar(40) primary key,
      "location_id" varchar(40) not null,
      "source" varchar(100) not null,
      "business_day" date not null,
      "currency" varchar(3) not null,
      "channel" varchar(40) not null,
      "gross" numeric not null,
      "discounts" numeric not null,
      "tax" numeric not null,
      "sales" integer not null,
      "completed" integer not null
    )`);
    this.addSql(`create table "sales"."summary_groups" (
      "location_id" varchar(40) not null,
      "source" varchar(100) not null,
      "business_day" date not null,
      "currency" varchar(3) not null,
      "channel" varchar(40) not null,
      "gross" numeric not null,
      "discounts" numeric not null,
      "tax" numeric not null,
      "sales" integer not null,
      "completed" integer not null,
      "members" integer not null,
      primary key ("location_id", "source", "business_day", "currency", "channel")
    )`);
    this.addSql(`create table "sales"."summary_group_deltas" (
      "id" bigserial primary key,
      "location_id" varchar(40) not null,
      "source" varchar(100) not null,
      "business_day" date not null,
      "currency" varchar(3) not null,
      "channel" varchar(40) not null,
      "gross" numeric not null,
      "discounts" numeric not null,
      "tax" numeric not null,
      "sales" integer not null,
      "completed" integer not null,
      "members" integer not null
    )`);
    this.addSql(`create index "summary_group_deltas_day_idx" on "sales"."summary_group_deltas" ("location_id", "source", "business_day")`);
    this.addSql(FILL_CONTRIBUTIONS);
    this.addSql(FILL_GROUPS);
  }
}
