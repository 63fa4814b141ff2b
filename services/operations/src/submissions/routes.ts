import { now, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { OperationsConfig } from '../config';
import { submissionDto } from './dto';
import { attachmentErrors, type AttachmentRef } from './files-link';
import { listSubmissions, readSubmission, submitForm } from './store';

/** Form submissions (spec: Forms, checklists and compliance): submitted with `checklists.complete`, read with `checklists.manage`, by location. */
export const submissionRoutes = (svc: ServiceRuntime<OperationsConfig>): RouteDef[] => [
  route('GET /form-submissions', async (ctx) => {
    return { body: await listSubmissions(ctx.em, ctx.query, ctx.reach()) };
  }),

  // 201 with the judged submission; the same externalId and content again: 200 with the stored one
  route('POST /form-submissions', async (ctx) => {
    const caller = {
      principal: ctx.principal,
      reach: ctx.reach(),
      now: now(),
      checkAttachments: (refs: AttachmentRef[]) => attachmentErrors(svc.services, refs, ctx.principal, ctx.requestId),
    };
    const { status, submission } = await submitForm(ctx.em, ctx.body, caller);
    return { status, body: submission, headers: { Location: `/api/v1/form-submissions/${submission.id}` } };
  }),

  route('GET /form-submissions/{id}', async (ctx) => {
    return { body: submissionDto(await readSubmission(ctx.em, ctx.params.id, ctx.reach())) };
  }),
];
