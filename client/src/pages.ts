/** The list envelope (spec: Conventions): a page of records and the cursor of the next one. */
export interface ListPage<T> {
  data: T[];
  nextCursor: string | null;
  hasMore?: boolean;
}

type Answer<T> = { data?: ListPage<T>; error?: unknown; response?: Response };

/** A list call's failure: the answer's status and its RFC 9457 problem (`code`, `detail`, `errors[]`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: any,
  ) {
    super(`${status} ${problem?.code ?? ''}: ${problem?.detail ?? problem?.title ?? 'request failed'}`.trim());
    this.name = 'ApiError';
  }
}

/**
 * Every record of a list endpoint, page after page: the call is repeated with `query.cursor` set to
 * the last page's `nextCursor` until that is null. `options` are the call's own (filters, `limit`).
 * A failed page throws ApiError.
 */
export async function* paginate<T, O extends { query?: object }>(call: (options: O) => Promise<Answer<T>>, options: O = {} as O): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const answer = await call({ ...options, query: { ...options.query, ...(cursor ? { cursor } : {}) } });
    if (!answer.data) throw new ApiError(answer.response?.status ?? 0, answer.error);
    yield* answer.data.data;
    cursor = answer.data.nextCursor ?? undefined;
  } while (cursor);
}
