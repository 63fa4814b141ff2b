/**
 * The request's unit of work (RouteContext): parsed input, the caller, the reach, If-Match, and the write's transaction.
 */
import { type Logger } from './logger';
import { type EntityManager, type Orm } from './db';
import { ApiError, BadRequest, VersionMismatch } from './errors';
import { reachFor, type Principal, type ReachSet } from './auth';
import type { RouteContext } from './routes';
import { openWork, READ_HAS_NO_COMMIT, type Work, type WorkScope } from './work';
import { writeTransaction } from './write-transaction';
import { requestLogger } from './request-log';
import { type KitRequest } from './http-server';
import type { Compiled } from './service-routes';
import { parseOrThrow } from './request-input';
import { recordingEmits, recordRouteEmits } from './emit-recorder';

import type { ServiceDefinition } from './service';

export function parseIfMatch(header: string | undefined): number | '*' | null | 'invalid' {
  if (header === undefined) return null;
  const first = header.split(',')[0].trim();
  if (first === '*') return '*';
  const m = /^(?:W\/)?"?(\d+)"?$/.exec(first);
  return m ? Number(m[1]) : 'invalid';
}

export function buildContext(req: KitRequest, principal: Principal, compiled: Compiled, rawParams: Record<string, string>, orm: Orm, log: Logger, scope: WorkScope): RouteContext {
  const params = compiled.params ? parseOrThrow(compiled.params, rawParams, 'params') : rawParams;
  const query = compiled.query ? parseOrThrow(compiled.query, req.query, 'query') : req.query;
  let body: unknown = undefined;
  if (compiled.body) {
    const raw = req.body === undefined ? {} : req.body;
    if (req.body === undefined && Number(req.headers['content-length'] ?? 0) > 0) {
      throw new BadRequest('Send the body as JSON with Content-Type: application/json.');
    }
    body = parseOrThrow(compiled.body, raw, 'body');
  }
  const ifMatch = parseIfMatch(req.headers['if-match'] as string | undefined);
  const row = compiled.row;
  const permission = row && typeof row.people === 'object' ? row.people.permission : null;
  let em: EntityManager | undefined;
  const now = scope.clock.now();
  // on `/me` rows a person acts as their employee (supplement: the actor follows from the caller)
  const actor: Principal = row?.path.startsWith('/me') && principal.kind === 'user' && principal.employeeId ? { ...principal, actingAsEmployee: true } : principal;
  const ctx: RouteContext = {
    requestId: (req as any).id,
    principal,
    row,
    params,
    query,
    body,
    // forked and made on first use
    get em() {
      return (em ??= orm.em.fork());
    },
    get log() {
      return requestLogger(req as { id?: string; log?: Logger }, log);
    },
    headers: req.headers,
    request: req,
    now,
    actor,
    schema: scope.schema,
    services: scope.services,
    reach() {
      const reach = reachFor(principal, permission);
      if (!reach) throw new ApiError('forbidden', `You lack the permission ${permission}.`);
      return reach;
    },
    checkVersion(current: number) {
      if (ifMatch === null || ifMatch === '*') return;
      if (ifMatch === 'invalid' || ifMatch !== current) throw new VersionMismatch(current);
    },
    emit(event) {
      throw new Error(`${event.type}: a read records no events (emit in a write: a route other than GET, a consumer, a worker's write)`);
    },
    beforeCommit() {
      throw new Error(READ_HAS_NO_COMMIT);
    },
    async transaction<T>(fn: (work: Work) => Promise<T>): Promise<T> {
      // the types the committed attempt emitted (a lost race runs the write again), for the test run's recorder
      let emitted: string[] = [];
      const result = await writeTransaction(
        orm.em.fork(),
        async (tem) => {
          // the unit on this transaction: the request's context with `em` and `emit` bound to it. A route
          // declared `{ transaction: false }` does work of its own first (streams an upload, asks other
          // services, also inside its transaction): its unit's instant is read when the unit first asks
          const own = compiled.def.options?.transaction === false;
          const unit = openWork(scope, tem, true, own ? { actor, nowWhenAsked: true, log: ctx.log } : { actor, now, log: ctx.log });
          const attempt: string[] = (emitted = []);
          const emit: Work['emit'] = recordingEmits ? (event, o) => (attempt.push(event.type), unit.work.emit(event, o)) : unit.work.emit;
          const inUnit: RouteContext = Object.create(ctx, { em: { value: tem }, emit: { value: emit }, beforeCommit: { value: unit.work.beforeCommit }, ...(own ? { now: { get: () => unit.work.now } } : {}) });
          const result = await fn(inUnit);
          await unit.flush();
          return result;
        },
        compiled.def.options?.conflict ?? defaultConflict,
        compiled.def.options?.attempts,
      );
      if (recordingEmits) recordRouteEmits(compiled.row ? `${compiled.row.method} ${compiled.row.path}` : compiled.def.key, ctx.requestId, emitted);
      return result;
    },
  };
  return ctx;
}

const defaultConflict = (): ApiError => new ApiError('conflict', 'A concurrent request wrote the same record; send the request again.');

/** Adds the locations of a person's org-unit reach to the reach the handler sees (one query, only when there are org units). */
export async function resolveOrgUnitReach(ctx: RouteContext, resolve: NonNullable<ServiceDefinition['locationsInOrgUnits']>): Promise<void> {
  let reach: ReachSet;
  try {
    reach = ctx.reach();
  } catch {
    return; // no permission: the handler's own ctx.reach() refuses
  }
  if (reach.everyone || reach.orgUnitIds.size === 0) return;
  // a write reaches what organization says now (read-your-writes); reads use the replica
  const ids = await resolve(ctx, [...reach.orgUnitIds], { current: ctx.row !== null && ctx.row.method !== 'GET' });
  const resolved: ReachSet = { ...reach, locationIds: new Set([...reach.locationIds, ...ids]), orgUnitsResolved: true };
  ctx.reach = () => resolved;
}
