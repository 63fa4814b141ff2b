import { FormStatesRequest, type FormStatesAnswer } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { formStates } from './store';

/** Operations' internal reads for other services (equipment's maintenance plans name a checklist form). System principal only. */
export const formInternalRoutes = (): InternalRouteDef[] => [
  internalRoute('POST /internal/forms:states', { body: FormStatesRequest }, async (ctx) => {
    const answer: FormStatesAnswer = { data: await formStates(ctx, ctx.body.ids) };
    return ok(answer);
  }),
];
