import type { z } from 'zod';

/** Request and response schemas of an endpoint; keyed `"<METHOD> <path>"` as in the catalogue. */
export interface OperationSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * A multipart/form-data upload instead of a JSON body: its text fields (checked with this schema by
   * the service after it has read the stream) and the name of its one file part
   */
  form?: z.ZodType;
  formFile?: string;
  response?: z.ZodType;
  /** the answer is the bytes of a stored file in its own content type (not JSON) */
  binaryResponse?: boolean;
  /** success status when not 200 (e.g. 201 on create, 202 on batches, 204 on no content) */
  status?: number;
  /** other success statuses the endpoint answers besides `status` (a creating PUT: 201 when it created, `status` 200 when it replaced) */
  alsoStatuses?: readonly number[];
  /** problem statuses the endpoint answers besides those every operation of its kind documents (a GET's 409) */
  errorStatuses?: readonly number[];
}

/** Every success status an endpoint documents: its main one first, then the others. */
export function successStatuses(ops: OperationSchemas | undefined): number[] {
  return [ops?.status ?? 200, ...(ops?.alsoStatuses ?? [])];
}

export function defineOperations<T extends Record<string, OperationSchemas>>(ops: T): T {
  return ops;
}
