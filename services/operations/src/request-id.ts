import type { Work } from '@bop/shared';

/** The id of the request a route's unit serves (sent on to the services it calls, for their logs); none in consumers and workers. */
export function requestIdOf(w: Work): string | undefined {
  const id = (w as { requestId?: unknown }).requestId;
  return typeof id === 'string' ? id : undefined;
}
