import { route, type RouteDef } from '@bop/shared';
import { submissionDto } from './dto';
import { listSubmissions, readSubmission, submissionConflictFor, submitForm } from './store';

/** Form submissions (spec: Forms, checklists and compliance): submitted with `checklists.complete`, read with `checklists.manage`, by location. */
export const submissionRoutes = (): RouteDef[] => [
  route('GET /form-submissions', async (ctx) => {
    return { body: await listSubmissions(ctx, ctx.query) };
  }),

  // 201 with the judged submission; the same externalId and content again: 200 with the stored one
  route(
    'POST /form-submissions',
    async (ctx) => {
      const { status, submission } = await submitForm(ctx, ctx.body);
      return { status, body: submission, headers: { Location: `/api/v1/form-submissions/${submission.id}` } };
    },
    { conflict: submissionConflictFor },
  ),

  route('GET /form-submissions/{id}', async (ctx) => {
    return { body: submissionDto(await readSubmission(ctx, ctx.params.id)) };
  }),
];
