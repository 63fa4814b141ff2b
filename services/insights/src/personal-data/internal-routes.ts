import { PersonalDataExportRequest, type PersonalDataExportAnswer } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { insightsDatasets } from './store';

/** Insights' part of the personal-data export (`GET /me/export` at people). System principal only. */
export const personalDataInternalRoutes = (): InternalRouteDef[] => [
  internalRoute('POST /internal/personal-data:export', { body: PersonalDataExportRequest }, async (ctx) => {
    const answer: PersonalDataExportAnswer = { service: 'insights', datasets: await insightsDatasets(ctx, ctx.body) };
    return ok(answer);
  }, { transaction: false }),
];
