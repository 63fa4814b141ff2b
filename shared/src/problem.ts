import { errorCodes } from '@bop/contracts';
import type { ApiError } from './errors';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: string;
  detail?: string;
  requestId: string;
  errors?: Array<{ path: string; message: string }>;
  [extra: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** `type` is `{errors_base}/<code>`; the base comes from config (ERRORS_BASE_URL). */
export function problemBody(err: ApiError, requestId: string, errorsBase: string): ProblemBody {
  const body: ProblemBody = {
    type: `${errorsBase.replace(/\/$/, '')}/${err.code}`,
    title: errorCodes[err.code].title,
    status: err.status,
    code: err.code,
    requestId,
  };
  if (err.detail) body.detail = err.detail;
  if (err.errors && err.errors.length > 0) body.errors = err.errors;
  if (err.extra) Object.assign(body, err.extra);
  return body;
}
