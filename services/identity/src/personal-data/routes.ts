import { PersonalDataExportRequest, type PersonalDataExportAnswer } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { personalData } from './store';

/** Identity's part of `GET /me/export` (people assembles the services' answers). System principal only. */
export const personalDataRoutes = (): InternalRouteDef[] => [
  internalRoute(
    'POST /internal/personal-data:export',
    { body: PersonalDataExportRequest },
    async (ctx) => {
      const answer: PersonalDataExportAnswer = { service: 'identity', datasets: await personalData(ctx, ctx.body.userId) };
      return ok(answer);
    },
    // a read: no transaction, as before units
    { transaction: false },
  ),
];
