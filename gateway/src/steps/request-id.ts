import type { ServerResponse } from 'node:http';
import { startRequestId } from '@bop/shared';
import type { GatewayRequest } from '../context';

/** Step 1: take a sane incoming `X-Request-Id` or make `req_…` (the kit's); echo it on every response (and log line). */
export function startRequest(req: GatewayRequest, res: ServerResponse): void {
  const startedAt = performance.now();
  startRequestId(req, res);
  req.gw = { limited: false, startedAt };
}
