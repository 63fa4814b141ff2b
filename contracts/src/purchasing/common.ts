import { z } from '../zod';

/**
 * Shared shapes of purchasing. Order quantities are in the supplier's packs (the catalog line's
 * `packSize` of `unitId`, e.g. a case of 12 each); money is a decimal string in the company currency:
 * prices per pack up to four decimals, amounts (quantity × price, totals, tax) to the cent.
 */
const decimalString = (pattern: RegExp, message: string) =>
  z.string({ error: (iss) => (typeof iss.input === 'number' ? 'send decimals as strings' : 'Required decimal string.') }).regex(pattern, message);

/** packs, more than zero (up to 3 decimals: half a case of loose produce) */
export const PackQuantity = decimalString(/^\d{1,10}(\.\d{1,3})?$/, 'Must be a decimal string such as "2" or "0.5" (up to 3 decimals).')
  .refine((v) => /[1-9]/.test(v), { message: 'Must be greater than zero.' })
  .openapi({ example: '4' });
/** packs, zero or more */
export const NonNegativePackQuantity = decimalString(/^\d{1,10}(\.\d{1,3})?$/, 'Must be a decimal string such as "2" or "0" (up to 3 decimals).').openapi({ example: '4' });
/** a price per pack, zero or more, up to four decimals */
export const UnitPrice = decimalString(/^\d{1,12}(\.\d{1,4})?$/, 'Must be a decimal string such as "18.95" (up to 4 decimals).').openapi({ example: '18.95' });
/** an amount to the cent, zero or more */
export const Amount = decimalString(/^\d{1,13}(\.\d{1,2})?$/, 'Must be a decimal string such as "120.50" (up to 2 decimals).').openapi({ example: '120.50' });
/** a quantity of the item's unit per pack, more than zero */
export const PackSize = decimalString(/^\d{1,10}(\.\d{1,6})?$/, 'Must be a decimal string such as "12" (up to 6 decimals).')
  .refine((v) => /[1-9]/.test(v), { message: 'Must be greater than zero.' })
  .openapi({ example: '12' });

export const RecordRef = z.string().trim().min(1).max(64);
export const text = (max: number) => z.string().trim().min(1).max(max);
/** a supplier's own code for an item (order guide) */
export const SupplierItemCode = text(100).openapi({ example: 'SYS-448812' });
