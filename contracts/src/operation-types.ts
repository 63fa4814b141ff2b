import type { z } from 'zod';

/** Request and response schemas of an endpoint; keyed `"<METHOD> <path>"` as in the catalogue. */
export interface OperationSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  /** success status when not 200 (e.g. 201 on create, 202 on batches, 204 on no content) */
  status?: number;
}

export function defineOperations<T extends Record<string, OperationSchemas>>(ops: T): T {
  return ops;
}
