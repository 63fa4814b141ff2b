import type { FormStatesAnswer } from '@bop/contracts';
import { callCommand, type FieldError, type ServiceClient } from '@bop/shared';

/** Checks a plan's checklist form as operations says now; answers a field error or null. */
export type FormCheck = (formId: string) => Promise<FieldError | null>;

/**
 * The checklist form a plan names must exist at operations and not be archived (its internal read
 * `POST /internal/forms:states`). Operations unreachable → 503; an equipment service run without a
 * way to operations (tests of the service alone) accepts the id as sent.
 */
export function formChecker(services: ServiceClient, requestId?: string): FormCheck {
  return async (formId) => {
    if (!services.has('operations')) return null;
    const answer = await callCommand<FormStatesAnswer>(services, 'operations', 'POST', '/internal/forms:states', { ids: [formId] }, { what: 'check the checklist form', ok: [200], requestId });
    const form = answer.data.find((f) => f.id === formId);
    if (!form) return { path: 'checklistFormId', message: `No form ${formId}.` };
    if (form.status === 'archived') return { path: 'checklistFormId', message: `Form ${formId} is archived.` };
    return null;
  };
}
