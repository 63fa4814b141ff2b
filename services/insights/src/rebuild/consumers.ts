import type { ConsumerDef } from '@bop/shared';
import { salesConsumers } from '../sales/consumers';
import { laborConsumers } from '../labor/consumers';
import { scheduleConsumers } from '../schedule/consumers';
import { wasteConsumers } from '../waste/consumers';
import { cashConsumers } from '../cash/consumers';
import { stockConsumers } from '../stock/consumers';
import { purchaseConsumers } from '../purchases/consumers';
import { forecastConsumers } from '../forecasts/consumers';
import { holdReadModels } from './store';

/** A read model's consumer, holding the read models (shared) for its transaction: a rebuild never clears them under it. */
function holding(def: ConsumerDef): ConsumerDef {
  const handleBatch = def.handleBatch;
  return {
    ...def,
    async handle(ctx) {
      await holdReadModels(ctx);
      await def.handle(ctx);
    },
    ...(handleBatch
      ? {
          async handleBatch(ctx) {
            await holdReadModels(ctx);
            await handleBatch(ctx);
          },
        }
      : {}),
  };
}

/** The consumers of insights' read models (sales, labor, scheduled shifts, waste, over/short, stock flows and levels, purchase prices and orders, forecasts): the service's, and a rebuild's replay. */
export const readModelConsumers: ConsumerDef[] = [...salesConsumers, ...laborConsumers, ...scheduleConsumers, ...wasteConsumers, ...cashConsumers, ...stockConsumers, ...purchaseConsumers, ...forecastConsumers].map(holding);
