import { PersonalDataExportRequest, type PersonalDataExportAnswer } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { timeDatasets } from './store';

/** Time's internal command for the personal-data export (`GET /me/export` at people). System principal only. */
export const personalDataInternalRoutes = (): InternalRouteDef[] => [
  internalRoute('POST /internal/personal-data:export', { body: PersonalDataExportRequest }, async (ctx) => {
    const answer: PersonalDataExportAnswer = { service: 'time', datasets: await timeDatasets(ctx.em, ctx.body.employeeId) };
    return ok(answer);
  }),
];
