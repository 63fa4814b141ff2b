import { errorCodes, type ErrorCode } from '@bop/contracts';

export interface FieldError {
  path: string;
  message: string;
}

/** An error the kit renders as RFC 9457 problem details. Throw it (or a subclass); never hand-write a 4xx/5xx. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly errors?: FieldError[],
    /** extra members of the problem object, e.g. `mfaToken` */
    readonly extra?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(detail ?? errorCodes[code].title);
    this.status = errorCodes[code].status;
  }
}

export class ValidationError extends ApiError {
  constructor(errors: FieldError[], detail = 'The request has invalid fields.') {
    super('validation_error', detail, errors);
  }
}
export class BadRequest extends ApiError {
  constructor(detail: string, errors?: FieldError[]) {
    super('bad_request', detail, errors);
  }
}
export class NotFound extends ApiError {
  constructor(what = 'record', id?: string) {
    super('not_found', id ? `No ${what} with id ${id}.` : `No such ${what}.`);
  }
}
export class Conflict extends ApiError {
  constructor(detail: string, errors?: FieldError[]) {
    super('conflict', detail, errors);
  }
}
export class VersionMismatch extends ApiError {
  constructor(current: number) {
    super('version_mismatch', `If-Match does not match the current version ${current}.`, undefined, { currentVersion: current });
  }
}
export class PeriodLocked extends ApiError {
  constructor(detail: string) {
    super('period_locked', detail);
  }
}
export class Forbidden extends ApiError {
  constructor(detail: string) {
    super('forbidden', detail);
  }
}
export class OutOfReach extends ApiError {
  constructor(detail = 'Your permission does not reach this record.') {
    super('out_of_reach', detail);
  }
}
export class Unauthorized extends ApiError {
  constructor(detail = 'Missing, invalid, expired or revoked credentials.') {
    super('unauthorized', detail);
  }
}

/** 503 with Retry-After: a dependency (the database, another service) cannot serve right now; the client retries. */
export class ServiceUnavailable extends ApiError {
  constructor(detail = 'A part of the service is not reachable right now; retry with backoff.', retryAfterSeconds = 2) {
    super('service_unavailable', detail, undefined, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}
