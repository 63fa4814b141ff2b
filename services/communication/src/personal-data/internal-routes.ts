import { PersonalDataExportRequest, type PersonalDataExportAnswer } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { communicationDatasets } from './store';

/** Communication's part of the personal-data export (`GET /me/export` at people). System principal only. */
export const personalDataInternalRoutes = (): InternalRouteDef[] => [
  internalRoute('POST /internal/personal-data:export', { body: PersonalDataExportRequest }, async (ctx) => {
    const answer: PersonalDataExportAnswer = { service: 'communication', datasets: await communicationDatasets(ctx, ctx.body) };
    return ok(answer);
  }, { transaction: false }),
];
