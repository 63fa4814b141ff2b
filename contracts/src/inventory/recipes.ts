import { z } from '../zod';
import { PositiveQuantity } from './common';

/**
 * Usage recipes: what one base unit of a sold item uses (a burger: 1 bun, 150 g beef …). Sales deplete
 * the recipe's ingredients; a component that has a recipe of its own (a patty) is expanded down to
 * its leaf ingredients; a sold item without a recipe depletes itself (a bottled drink).
 */

/** Nested recipes (a burger uses a patty that uses beef) may go this many recipe levels deep. */
export const RECIPE_MAX_DEPTH = 10;
/** Components of one recipe. */
export const RECIPE_MAX_COMPONENTS = 100;

const id = z.string().trim().min(1).max(64);

/** The usable share of a component, 0 < yield ≤ 1 ("0.8": 20 % is trimmed, so 100 g usable takes 125 g). */
export const RecipeYield = z
  .string({ error: (iss) => (typeof iss.input === 'number' ? 'send decimals as strings' : 'Required decimal string.') })
  .regex(/^(0(\.\d{1,6})?|1(\.0{1,6})?)$/, 'Must be a decimal string above 0 and at most 1, such as "0.8".')
  .refine((v) => /[1-9]/.test(v), { message: 'Must be greater than zero.' })
  .openapi({ example: '0.8' });

/** One ingredient of a recipe as sent. */
export const RecipeComponentInput = z.strictObject({
  itemId: id.openapi({ example: 'itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
  /** usable quantity per one base unit of the sold item, in `unitId` (else the component's base unit) */
  quantity: PositiveQuantity,
  unitId: id.nullable().optional(),
  /** usable share, default 1 */
  yield: RecipeYield.optional(),
});

/** Body of `PUT /usage-recipes/{itemId}`: the whole recipe; an empty list removes it (the item then depletes itself). */
export const UsageRecipeReplace = z
  .strictObject({ components: z.array(RecipeComponentInput).max(RECIPE_MAX_COMPONENTS) })
  .openapi('UsageRecipeReplace');
export type UsageRecipeReplace = z.output<typeof UsageRecipeReplace>;

export const UsageRecipeComponent = z.object({
  itemId: z.string(),
  /** as sent, in `unitId` (else the component's base unit) */
  quantity: z.string(),
  unitId: z.string().nullable(),
  yield: z.string(),
  /** the usable quantity in the component's base unit */
  baseQuantity: z.string(),
  /** what leaves stock: baseQuantity ÷ yield, in the component's base unit */
  grossQuantity: z.string(),
});
export type UsageRecipeComponent = z.output<typeof UsageRecipeComponent>;

/** One leaf ingredient and what selling one base unit of the item takes of it (base unit, yields applied). */
export const RecipeDepletion = z.object({ itemId: z.string(), quantity: z.string() });

export const UsageRecipe = z
  .object({
    itemId: z.string().openapi({ example: 'itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    components: z.array(UsageRecipeComponent),
    /** what one base unit sold takes from stock today: nested recipes expanded to their leaf ingredients */
    depletes: z.array(RecipeDepletion),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('UsageRecipe');
export type UsageRecipe = z.output<typeof UsageRecipe>;

export const UsageRecipeParams = z.object({ itemId: id });

/**
 * What depletion reads of sales' internal `sales.transactions.recorded` event (data.object); other
 * fields are ignored. Each transaction carries its version: only a newer one is applied.
 */
export const RecordedSalesObject = z.object({
  locationId: z.string().min(1),
  /** why sales wrote them: ingested, items_mapped (a POS item linked later), review_accepted */
  reason: z.string().max(40).optional(),
  transactions: z.array(
    z.object({
      id: z.string().min(1).max(40),
      version: z.number().int().positive(),
      locationId: z.string().min(1).optional(),
      type: z.enum(['sale', 'refund']),
      status: z.enum(['completed', 'voided']),
      occurredAt: z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: 'Must be a timestamp.' }),
      lines: z.array(z.object({ itemId: z.string().nullish().transform((v) => v ?? null), quantity: z.string().regex(/^-?\d{1,15}(\.\d{1,6})?$/) })),
    }),
  ),
});
export type RecordedSalesObject = z.output<typeof RecordedSalesObject>;

/** Usage recipes: GET/PUT /usage-recipes/{itemId} */
export const inventoryRecipesOperations = {
  'GET /usage-recipes/{itemId}': { params: UsageRecipeParams, response: UsageRecipe },
  // 201 when the item had no recipe, 200 when replaced, 204 when an empty list removed it
  'PUT /usage-recipes/{itemId}': { params: UsageRecipeParams, body: UsageRecipeReplace, response: UsageRecipe, alsoStatuses: [201, 204] },
};
