import type { UnitOfMeasureCreate } from '@bop/contracts';
import { Conflict, ValidationError, lockForTransaction, newId, sqlQuery, writeTransaction, type ApiError, type EntityManager } from '@bop/shared';
import type { UnitRow } from './dto';

/** Serialises unit creation: a name is checked against company-wide units and every item's own ones. */
const lockUnits = (em: EntityManager) => lockForTransaction(em, 'inventory.units_of_measure');

const nameTaken = (detail: string) => new Conflict(detail, [{ path: 'name', message: 'Already used by a unit that applies to the same items.' }]);
const conflictFor = (constraint: string | undefined): ApiError =>
  constraint === 'units_of_measure_company_name_uq' || constraint === 'units_of_measure_item_name_uq'
    ? nameTaken('Another unit with this name was created at the same time.')
    : new Conflict('Another unit was written at the same time; send the request again.');

const UNIT_COLUMNS = `"id", "name", "base_unit", "factor"::text as "factor", "item_id", "version", "created_at", "updated_at"`;

/**
 * A unit's name is unique among the units that apply to any one item: company-wide names are unique
 * company-wide and differ from the own units of items kept in the same base unit; an item's own unit
 * differs from its other units and from the company-wide ones of its base unit.
 */
async function assertNameFree(em: EntityManager, name: string, baseUnit: string, itemId: string | null): Promise<void> {
  const rows = await sqlQuery<{ id: string; item_id: string | null }>(
    em,
    itemId === null
      ? `select u."id", u."item_id" from "inventory"."units_of_measure" u left join "inventory"."items" i on i."id" = u."item_id"
         where lower(u."name") = lower(?) and (u."item_id" is null or i."base_unit" = ?) order by u."item_id" nulls first limit 1`
      : `select "id", "item_id" from "inventory"."units_of_measure"
         where lower("name") = lower(?) and (("item_id" is null and "base_unit" = ?) or "item_id" = ?) order by "item_id" nulls first limit 1`,
    itemId === null ? [name, baseUnit] : [name, baseUnit, itemId],
  );
  const other = rows[0];
  if (!other) return;
  throw nameTaken(other.item_id === null ? `Company-wide unit ${other.id} is already named ${name}.` : `Item ${other.item_id} already has a unit of its own named ${name} (${other.id}).`);
}

export interface UnitFilter {
  itemId?: string;
  baseUnit?: string;
  /** the decoded cursor: id of the last unit of the previous page */
  after: string | null;
  limit: number;
}

/** A page of units in id order (`limit + 1` rows): with `itemId`, those that apply to that item. */
export async function listUnits(em: EntityManager, f: UnitFilter): Promise<UnitRow[]> {
  const { after, baseUnit, itemId } = f;
  return sqlQuery<UnitRow>(
    em,
    `select ${UNIT_COLUMNS} from "inventory"."units_of_measure" u
     where (?::text is null or u."id" > ?) and (?::text is null or u."base_unit" = ?)
       and (?::text is null or u."item_id" = ? or (u."item_id" is null and u."base_unit" = (select i."base_unit" from "inventory"."items" i where i."id" = ?)))
     order by u."id" limit ?`,
    [after, after, baseUnit ?? null, baseUnit ?? null, itemId ?? null, itemId ?? null, itemId ?? null, f.limit + 1],
  );
}

/** `POST /units-of-measure`: a company-wide unit, or an item's own (422 on a missing, archived or differently measured item; 409 on a name in use). */
export async function createUnit(em: EntityManager, body: UnitOfMeasureCreate, now: Date): Promise<UnitRow> {
  const { name, baseUnit, factor } = body;
  const itemId = body.itemId ?? null;
  return writeTransaction(
    em,
    async (tem) => {
      await lockUnits(tem);
      if (itemId !== null) {
        const [item] = await sqlQuery<{ base_unit: string; status: string }>(tem, `select "base_unit", "status" from "inventory"."items" where "id" = ? for share`, [itemId]);
        if (!item) throw new ValidationError([{ path: 'itemId', message: `No item ${itemId}.` }]);
        if (item.status !== 'active') throw new ValidationError([{ path: 'itemId', message: `Item ${itemId} is archived.` }]);
        if (item.base_unit !== baseUnit) throw new ValidationError([{ path: 'baseUnit', message: `Item ${itemId} is kept in ${item.base_unit}; its units must measure ${item.base_unit}.` }]);
      }
      await assertNameFree(tem, name, baseUnit, itemId);
      const [created] = await sqlQuery<UnitRow>(
        tem,
        `insert into "inventory"."units_of_measure" ("id", "name", "base_unit", "factor", "item_id", "version", "created_at", "updated_at")
         values (?, ?, ?, ?::numeric, ?, 1, ?, ?) returning ${UNIT_COLUMNS}`,
        [newId('unitOfMeasure'), name, baseUnit, factor, itemId, now, now],
      );
      return created;
    },
    conflictFor,
  );
}
