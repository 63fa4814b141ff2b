import Decimal from 'decimal.js';

/** Money to the cent, half up (as `GET /kpis` rounds). */
export const money = (d: Decimal.Value) => new Decimal(d).toFixed(2, Decimal.ROUND_HALF_UP);
/** Hours and quantities to two decimals, half up. */
export const decimal2 = (d: Decimal.Value) => new Decimal(d).toFixed(2, Decimal.ROUND_HALF_UP);
/** A date column as it comes from a `date` column. */
export const dayText = (d: string | Date) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));

/** The rows of `locationIds` over business days `from`..`to` (every read model keys them so). */
export const rangeWhere = (p: { from: string; to: string; locationIds: string[] }) => ({ locationId: { $in: p.locationIds }, businessDay: { $gte: p.from, $lte: p.to } });
