import { AssetStatesRequest } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { assetStates } from './store';

/** `POST /internal/assets:states`: the assets operations' sensors watch, as they stand now (unknown ids absent). System principal only. */
export const assetInternalRoutes = (): InternalRouteDef[] => [
  internalRoute('POST /internal/assets:states', { body: AssetStatesRequest }, async (ctx) => ok({ data: await assetStates(ctx, ctx.body.ids) })),
];
