import { route, type RouteDef } from '@bop/shared';
import { replaceRules, rulesInForce } from './store';

export const ruleRoutes = (): RouteDef[] => [
  route('GET /time/break-rules', async (ctx) => {
    return { body: await rulesInForce(ctx, 'break', ctx.query.locationId ?? null, ctx.reach()) };
  }),

  route('PUT /time/break-rules', async (ctx) => {
    const { locationId, ...rules } = ctx.body;
    return { body: await replaceRules(ctx, 'break', locationId ?? null, { breaks: rules.breaks, maxShiftHours: rules.maxShiftHours ?? null }) };
  }),

  route('GET /time/overtime-rules', async (ctx) => {
    return { body: await rulesInForce(ctx, 'overtime', ctx.query.locationId ?? null, ctx.reach()) };
  }),

  route('PUT /time/overtime-rules', async (ctx) => {
    const { locationId, ...rules } = ctx.body;
    return { body: await replaceRules(ctx, 'overtime', locationId ?? null, rules) };
  }),
];
