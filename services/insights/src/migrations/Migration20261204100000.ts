import { Migration } from '@bop/shared';

const S = '"insights"';

/** the paid hours of a `labor_hours` row (`h`): regular plus every overtime hour */
const PAID = (h: string) => `${h}."regular_hours" + (select coalesce(sum(o.v::numeric), 0) from jsonb_each_text(${h}."overtime") o(k, v))`;

/**
 * The day sums a labor, shift or flow row adds (`sign` 1) or takes back (-1) from its location and
 * business day, grouped and in key order (two transactions lock the same days in the same order).
 */
const LABOR_DAYS = (rows: string, sign: 1 | -1) => `select "location_id", "business_day", ${sign} * (${PAID('x')}) as "hours", ${sign} * coalesce(x."cost", 0) as "cost" from ${rows} x`;
const SHIFT_DAYS = (rows: string, sign: 1 | -1) => `select "location_id", "business_day", ${sign} * x."paid_hours" as "hours", ${sign} * coalesce(x."cost", 0) as "cost" from ${rows} x where x."status" = 'published'`;
const FLOW_DAYS = (rows: string, sign: 1 | -1) => `select "location_id", "business_day", "flow", ${sign} * x."value" as "value" from ${rows} x`;

/** An upsert adding `parts` (union all) into a day-sums table by its key. */
const addInto = (table: string, key: string[], values: string[], parts: string[]) =>
  `insert into ${S}."${table}" as t (${[...key, ...values].map((c) => `"${c}"`).join(', ')})
   select ${key.map((c) => `"${c}"`).join(', ')}, ${values.map((c) => `sum("${c}")`).join(', ')} from (${parts.join(' union all ')}) d
   group by ${key.map((c) => `"${c}"`).join(', ')} order by ${key.map((c) => `"${c}"`).join(', ')}
   on conflict (${key.map((c) => `"${c}"`).join(', ')}) do update set ${values.map((c) => `"${c}" = t."${c}" + excluded."${c}"`).join(', ')}`;

/** Deletes the rows of `table` among the keys of `rows` whose every value came back to zero (nothing left to add up there). */
const prune = (table: string, key: string[], values: string[], rows: string[]) =>
  `delete from ${S}."${table}" t using (${rows.map((r) => `select ${key.map((c) => `"${c}"`).join(', ')} from ${r}`).join(' union ')}) k
   where ${key.map((c) => `t."${c}" = k."${c}"`).join(' and ')} and ${values.map((c) => `t."${c}" = 0`).join(' and ')}`;

/** A statement trigger function keeping `table` in step with its source's inserted, updated and deleted rows. */
const dayTrigger = (fn: string, table: string, key: string[], values: string[], rows: (rows: string, sign: 1 | -1) => string) => `
  create function ${S}."${fn}"() returns trigger language plpgsql as $$
  begin
    if tg_op = 'INSERT' then
      ${addInto(table, key, values, [rows('new_rows', 1)])};
      ${prune(table, key, values, ['new_rows'])};
    elsif tg_op = 'DELETE' then
      ${addInto(table, key, values, [rows('old_rows', -1)])};
      ${prune(table, key, values, ['old_rows'])};
    else
      ${addInto(table, key, values, [rows('new_rows', 1), rows('old_rows', -1)])};
      ${prune(table, key, values, ['new_rows', 'old_rows'])};
    end if;
    return null;
  end $$`;

/** The three statement triggers (insert, update, delete) of a source table calling `fn`. */
const triggers = (source: string, fn: string) => [
  `create trigger "${fn}_insert" after insert on ${S}."${source}" referencing new table as new_rows for each statement execute function ${S}."${fn}"()`,
  `create trigger "${fn}_update" after update on ${S}."${source}" referencing old table as old_rows new table as new_rows for each statement execute function ${S}."${fn}"()`,
  `create trigger "${fn}_delete" after delete on ${S}."${source}" referencing old table as old_rows for each statement execute function ${S}."${fn}"()`,
];

/** Prices the rows the read models hold (a database upgraded with rows in it; the tests run them again). */
export const PRICE_ROWS = [
  `update ${S}."labor_hours" h set "cost" = ${S}."labor_cost"(h."employee_id", h."business_day", h."position", h."regular_hours", h."overtime")`,
  `update ${S}."scheduled_shifts" s set "cost" = ${S}."shift_cost"(s."employee_id", s."business_day", s."position", s."paid_hours")`,
];

/** Fills the day sums from what the read models hold. */
export const FILL_DAY_SUMS = [
  addInto('labor_days', ['location_id', 'business_day'], ['hours', 'cost'], [LABOR_DAYS(`${S}."labor_hours"`, 1)]),
  addInto('shift_days', ['location_id', 'business_day'], ['hours', 'cost'], [SHIFT_DAYS(`${S}."scheduled_shifts"`, 1)]),
  addInto('flow_days', ['location_id', 'business_day', 'flow'], ['value'], [FLOW_DAYS(`${S}."stock_flows"`, 1)]),
  `delete from ${S}."labor_days" where "hours" = 0 and "cost" = 0`,
  `delete from ${S}."shift_days" where "hours" = 0 and "cost" = 0`,
  `delete from ${S}."flow_days" where "value" = 0`,
];

/**
 * insights: labor and scheduled hours priced when they are written, and day sums per location kept by
 * Postgres in the same statement as the rows they add up, so `GET /kpis` and the reports by day read
 * one row a location and day instead of every employee's hours, shift and item flow of the range.
 *
 * - `labor_hours.cost` and `scheduled_shifts.cost`: the hours at the pay rate in force on the row's
 *   day for its position (people's rates, replicated into `pay_rates`: the latest effective on or
 *   before the day of the position's own rates, compared without case, else of the rates for every
 *   position; ties to the later id; an hourly rate only, else null) — regular × rate + overtime × rate
 *   × multiplier, straight time for shifts, unrounded. A rate added to `pay_rates` prices again the
 *   rows of its employee from its effective date on.
 * - `labor_days`, `shift_days` (published shifts only) and `flow_days`: the sums of those rows by
 *   location and business day (flows by flow too), changed by statement triggers on every insert,
 *   update and delete of their source; a row whose every sum comes back to zero is deleted (a
 *   rebuild ends with the same rows).
 */
export class Migration20261204100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table ${S}."labor_hours" add column "cost" numeric null`);
    this.addSql(`alter table ${S}."scheduled_shifts" add column "cost" numeric null`);
    this.addSql(`create index "labor_hours_employee_day_idx" on ${S}."labor_hours" ("employee_id", "business_day")`);
    this.addSql(`create index "scheduled_shifts_employee_day_idx" on ${S}."scheduled_shifts" ("employee_id", "business_day") where "employee_id" is not null`);
    for (const table of ['labor_days', 'shift_days']) {
      this.addSql(`create table ${S}."${table}" (
        "location_id" varchar(64) not null,
        "business_day" date not null,
        "hours" numeric not null,
        "cost" numeric not null,
        primary key ("location_id", "business_day")
      )`);
    }
    this.addSql(`create table ${S}."flow_days" (
      "location_id" varchar(64) not null,
      "business_day" date not null,
      "flow" varchar(20) not null,
      "value" numeric not null,
      primary key ("location_id", "business_day", "flow")
    )`);

    // the hourly rate in force (null: none yet, or not hourly)
    this.addSql(`create function ${S}."hourly_rate"(p_employee text, p_day date, p_position text) returns numeric language sql stable as $$
      select case when r."type" = 'hourly' then r."amount" end
      from ${S}."pay_rates" r
      where r."employee_id" = p_employee and r."effective_date" <= p_day and (r."position" is null or lower(r."position") = lower(p_position))
      order by (r."position" is not null) desc, r."effective_date" desc, r."id" collate "C" desc
      limit 1 $$`);
    this.addSql(`create function ${S}."labor_cost"(p_employee text, p_day date, p_position text, p_regular numeric, p_overtime jsonb) returns numeric language sql stable as $$
      select ${S}."hourly_rate"(p_employee, p_day, p_position) * (p_regular + (select coalesce(sum(o.v::numeric * o.k::numeric), 0) from jsonb_each_text(p_overtime) o(k, v))) $$`);
    this.addSql(`create function ${S}."shift_cost"(p_employee text, p_day date, p_position text, p_hours numeric) returns numeric language sql stable as $$
      select case when p_employee is not null then ${S}."hourly_rate"(p_employee, p_day, p_position) * p_hours end $$`);

    for (const sql of [...PRICE_ROWS, ...FILL_DAY_SUMS]) this.addSql(sql);

    // a row is priced as it is written
    this.addSql(`create function ${S}."labor_hours_price"() returns trigger language plpgsql as $$
      begin
        new."cost" := ${S}."labor_cost"(new."employee_id", new."business_day", new."position", new."regular_hours", new."overtime");
        return new;
      end $$`);
    this.addSql(`create trigger "labor_hours_price" before insert or update of "employee_id", "business_day", "position", "regular_hours", "overtime" on ${S}."labor_hours"
      for each row execute function ${S}."labor_hours_price"()`);
    this.addSql(`create function ${S}."scheduled_shifts_price"() returns trigger language plpgsql as $$
      begin
        new."cost" := ${S}."shift_cost"(new."employee_id", new."business_day", new."position", new."paid_hours");
        return new;
      end $$`);
    this.addSql(`create trigger "scheduled_shifts_price" before insert or update of "employee_id", "business_day", "position", "paid_hours" on ${S}."scheduled_shifts"
      for each row execute function ${S}."scheduled_shifts_price"()`);

    // a rate added, changed or removed prices its employee's rows again from its effective date on
    this.addSql(`create function ${S}."reprice"(p_employee text, p_since date) returns void language sql as $$
      update ${S}."labor_hours" h set "cost" = ${S}."labor_cost"(h."employee_id", h."business_day", h."position", h."regular_hours", h."overtime")
      where h."employee_id" = p_employee and h."business_day" >= p_since;
      update ${S}."scheduled_shifts" s set "cost" = ${S}."shift_cost"(s."employee_id", s."business_day", s."position", s."paid_hours")
      where s."employee_id" = p_employee and s."business_day" >= p_since $$`);
    const reprice = (rows: string) => `for r in select "employee_id", min("effective_date") as "since" from (${rows}) x group by "employee_id" order by "employee_id" loop
          perform ${S}."reprice"(r."employee_id", r."since");
        end loop`;
    this.addSql(`create function ${S}."pay_rates_reprice"() returns trigger language plpgsql as $$
      declare r record;
      begin
        if tg_op = 'INSERT' then
          ${reprice('select "employee_id", "effective_date" from new_rows')};
        elsif tg_op = 'DELETE' then
          ${reprice('select "employee_id", "effective_date" from old_rows')};
        else
          ${reprice('select "employee_id", "effective_date" from new_rows union all select "employee_id", "effective_date" from old_rows')};
        end if;
        return null;
      end $$`);
    for (const sql of triggers('pay_rates', 'pay_rates_reprice')) this.addSql(sql);

    this.addSql(dayTrigger('labor_days_apply', 'labor_days', ['location_id', 'business_day'], ['hours', 'cost'], LABOR_DAYS));
    for (const sql of triggers('labor_hours', 'labor_days_apply')) this.addSql(sql);
    this.addSql(dayTrigger('shift_days_apply', 'shift_days', ['location_id', 'business_day'], ['hours', 'cost'], SHIFT_DAYS));
    for (const sql of triggers('scheduled_shifts', 'shift_days_apply')) this.addSql(sql);
    this.addSql(dayTrigger('flow_days_apply', 'flow_days', ['location_id', 'business_day', 'flow'], ['value'], FLOW_DAYS));
    for (const sql of triggers('stock_flows', 'flow_days_apply')) this.addSql(sql);
  }
}
