/** Stable error codes of the spec's Errors table, with their HTTP status and a title. */
export const errorCodes = {
  bad_request: { status: 400, title: 'Bad request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  session_expired: { status: 401, title: 'Session expired' },
  mfa_required: { status: 401, title: 'Second factor required' },
  forbidden: { status: 403, title: 'Forbidden' },
  out_of_reach: { status: 403, title: 'Out of reach' },
  mfa_enrollment_required: { status: 403, title: 'Two-factor enrolment required' },
  not_linked_to_employee: { status: 403, title: 'Not linked to an employee' },
  not_found: { status: 404, title: 'Not found' },
  feature_disabled: { status: 404, title: 'Feature disabled' },
  conflict: { status: 409, title: 'Conflict' },
  version_mismatch: { status: 409, title: 'Version mismatch' },
  period_locked: { status: 409, title: 'Period locked' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable' },
  validation_error: { status: 422, title: 'Validation error' },
  insufficient_stock: { status: 422, title: 'Insufficient stock' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const;

export type ErrorCode = keyof typeof errorCodes;
