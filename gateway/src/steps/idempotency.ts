import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { ServerResponse } from 'node:http';
import bytes from 'bytes';
import getRawBody from 'raw-body';
import { ApiError, BadRequest, Conflict, ServiceUnavailable, type Logger, type Orm } from '@bop/shared';
import { endpointKey, operationSchemas } from '@bop/contracts';
import type { GatewayRequest } from '../context';
import { clientIp } from './rate-limit';

const MAX_KEY_LENGTH = 255;
/** answer headers worth replaying */
const KEPT_HEADERS = ['content-type', 'location', 'etag'];
const T = '"gateway"."idempotency_keys"';

interface StoredRecord {
  method: string;
  path: string;
  body_hash: string;
  state: 'in_progress' | 'completed';
  status: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
}

/**
 * `Idempotency-Key` records in the gateway's own schema: claimed atomically before the request is
 * passed on, completed with the answer (5xx answers release the key so the client can retry),
 * ignored once expired and purged periodically.
 */
export class IdempotencyStore {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly orm: Orm,
    private readonly ttlSeconds: number,
    /** an in-progress claim older than this belongs to a gateway that died: it may be taken over */
    private readonly staleClaimSeconds: number,
    private readonly log: Logger,
  ) {}

  private exec<T = any>(sql: string, params: unknown[]): Promise<T[]> {
    return this.orm.em.getConnection().execute(sql, params as any[], 'all') as Promise<T[]>;
  }

  /** Claims the key for this request, or returns what already holds it. */
  async claim(scope: string, key: string, method: string, path: string, bodyHash: string): Promise<{ claimed: true } | { claimed: false; record: StoredRecord }> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const won = await this.exec(
        `insert into ${T} as k ("scope", "key", "method", "path", "body_hash", "state", "created_at", "expires_at")
         values (?, ?, ?, ?, ?, 'in_progress', now(), now() + make_interval(secs => ?))
         on conflict ("scope", "key") do update set
           "method" = excluded."method", "path" = excluded."path", "body_hash" = excluded."body_hash", "state" = 'in_progress',
           "status" = null, "headers" = null, "body" = null, "created_at" = excluded."created_at", "expires_at" = excluded."expires_at"
         where k."expires_at" <= now() or (k."state" = 'in_progress' and k."created_at" < now() - make_interval(secs => ?))
         returning "scope"`,
        [scope, key, method, path, bodyHash, this.ttlSeconds, this.staleClaimSeconds],
      );
      if (won.length > 0) return { claimed: true };
      const rows = await this.exec<StoredRecord>(
        `select "method", "path", "body_hash", "state", "status", "headers", "body" from ${T} where "scope" = ? and "key" = ? and "expires_at" > now()`,
        [scope, key],
      );
      if (rows.length > 0) return { claimed: false, record: rows[0] };
      // released (or expired) between the two statements: try again
    }
    throw new ServiceUnavailable('The Idempotency-Key could not be claimed; retry.');
  }

  /** Stores the answer; `bodyHash` names the request body when it was only known at the end (a streamed upload). */
  async complete(scope: string, key: string, status: number, headers: Record<string, string>, body: Buffer, bodyHash?: string): Promise<void> {
    await this.exec(`update ${T} set "state" = 'completed', "status" = ?, "headers" = ?::jsonb, "body" = ?, "body_hash" = coalesce(?, "body_hash") where "scope" = ? and "key" = ?`, [
      status,
      JSON.stringify(headers),
      body,
      bodyHash ?? null,
      scope,
      key,
    ]);
  }

  async release(scope: string, key: string): Promise<void> {
    await this.exec(`delete from ${T} where "scope" = ? and "key" = ? and "state" = 'in_progress'`, [scope, key]);
  }

  async purge(): Promise<number> {
    const rows = await this.exec(`delete from ${T} where "expires_at" <= now() returning "key"`, []);
    return rows.length;
  }

  start(everyMs = 10 * 60_000): void {
    this.timer = setInterval(() => {
      this.purge().then(
        (n) => n > 0 && this.log.info({ purged: n }, 'expired idempotency keys purged'),
        (err) => this.log.warn({ err }, 'idempotency purge failed'),
      );
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** `10mb`, `512kb`, `1048576` → bytes (the `bytes` package: 1024-based units). */
export function parseByteSize(text: string): number {
  const n = /^\d+(\.\d+)?\s*([kmgt]?b)?$/i.test(text.trim()) ? bytes.parse(text.trim()) : null;
  if (n === null || !Number.isFinite(n)) throw new Error(`not a size: ${text}`);
  return n;
}

/** Reads the whole request body once (raw-body; the gateway hashes it and sends the same bytes on). */
export async function readBody(req: GatewayRequest, limit: number): Promise<Buffer> {
  try {
    return await getRawBody(req, { limit, length: req.headers['content-length'] });
  } catch (err) {
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') throw new ApiError('payload_too_large', `The request body is larger than the limit (${limit} bytes).`, undefined, undefined, { Connection: 'close' });
    if (type === 'request.aborted' || type === 'request.size.invalid') throw new BadRequest('The request body was not sent completely.');
    throw err;
  }
}

/** The body hash of a streamed upload's claim until its end is seen (no SHA-256 hex looks like it). */
const STREAMING = 'streaming';

/** An upload row (multipart form in its contracts): its body streams on. */
function isUpload(req: GatewayRequest): boolean {
  const row = req.gw.route?.row;
  return row !== undefined && operationSchemas(endpointKey(row))?.form !== undefined;
}

/** The upload digest of a body read to its end and dropped (a repeated upload compared with the first). */
async function hashOf(req: GatewayRequest): Promise<string> {
  const digest = new UploadDigest(req);
  for await (const _ of req.pipe(digest)) void _;
  return digest.hex();
}

/**
 * Passes an upload on unchanged and hashes it without its multipart boundary: a client that sends the
 * same file again under the same Idempotency-Key makes a new random boundary, and that alone is not
 * another request.
 */
export class UploadDigest extends Transform {
  private readonly hash = createHash('sha256');
  private readonly marker: Buffer | null;
  private carry = Buffer.alloc(0);

  constructor(req: { headers: { 'content-type'?: string } }) {
    super();
    const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(req.headers['content-type'] ?? '');
    const boundary = m ? (m[1] ?? m[2]) : null;
    this.marker = boundary ? Buffer.from(boundary) : null;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null, data?: Buffer) => void): void {
    this.feed(chunk);
    done(null, chunk);
  }

  override _flush(done: (err?: Error | null) => void): void {
    this.hash.update(this.carry);
    this.carry = Buffer.alloc(0);
    done();
  }

  private feed(chunk: Buffer): void {
    if (this.marker === null) {
      this.hash.update(chunk);
      return;
    }
    const buf = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    let from = 0;
    for (let at = buf.indexOf(this.marker, from); at >= 0; at = buf.indexOf(this.marker, from)) {
      this.hash.update(buf.subarray(from, at));
      from = at + this.marker.length;
    }
    // a marker may straddle two chunks: its possible start waits for the next one
    const keep = Math.min(buf.length - from, this.marker.length - 1);
    this.hash.update(buf.subarray(from, buf.length - keep));
    this.carry = Buffer.from(buf.subarray(buf.length - keep));
  }

  hex(): string {
    return this.hash.digest('hex');
  }
}

/** The idempotency key of a POST, or null when none was sent. */
export function idempotencyKeyOf(req: GatewayRequest): string | null {
  if (req.method !== 'POST') return null;
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) throw new BadRequest(`The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters.`);
  return key;
}

export interface IdempotencyDeps {
  store: IdempotencyStore;
  bodyLimit: number;
  trustProxy: boolean | number | string;
  log: Logger;
}

/**
 * Step 7: a POST with `Idempotency-Key` is answered from the record when one exists for this caller
 * (same request → the stored status and body with `Idempotent-Replayed: true`; another request or one
 * still running → 409 `conflict`); otherwise the key is claimed and `forward` runs with the answer
 * captured. Returns after the response is sent or forwarding has begun.
 */
export async function idempotent(deps: IdempotencyDeps, key: string, req: GatewayRequest, res: ServerResponse, forward: () => Promise<void>): Promise<void> {
  const scope = req.gw.auth ? req.gw.auth.principal.id : `ip:${clientIp(req, deps.trustProxy)}`;
  const path = req.originalUrl;
  // an upload (multipart, up to STORAGE_MAX_UPLOAD_MB) is never read whole: it is hashed as it streams on
  const streamed = isUpload(req);
  let hash = STREAMING;
  if (!streamed) {
    const body = await readBody(req, deps.bodyLimit);
    req.gw.body = body;
    hash = createHash('sha256').update(body).digest('hex');
  }
  const got = await deps.store.claim(scope, key, req.method, path, hash);
  if (!got.claimed) {
    const rec = got.record;
    if (streamed && rec.state === 'completed' && rec.method === req.method && rec.path === path) hash = await hashOf(req);
    if (rec.method !== req.method || rec.path !== path || rec.body_hash !== hash) {
      throw new Conflict('This Idempotency-Key was used with a different request (method, path or body).');
    }
    if (rec.state !== 'completed' || rec.status === null) {
      throw new Conflict('A request with this Idempotency-Key is still being processed; retry later.');
    }
    for (const [k, v] of Object.entries(rec.headers ?? {})) res.setHeader(k, v);
    res.setHeader('Idempotent-Replayed', 'true');
    res.statusCode = rec.status;
    res.end(rec.body ?? Buffer.alloc(0));
    return;
  }
  req.gw.idempotency = { scope, key };
  const tap = streamed ? (req.gw.bodyTap = new UploadDigest(req)) : null;
  req.gw.onAnswer = async (status, headers, answer) => {
    try {
      // an answer given before the upload was all received (413 …) names no body: the key is freed, not kept
      if (status >= 500 || (tap !== null && !(req.complete && tap.writableFinished))) {
        await deps.store.release(scope, key);
        return;
      }
      const kept: Record<string, string> = {};
      for (const h of KEPT_HEADERS) {
        const v = headers[h];
        if (typeof v === 'string') kept[h] = v;
      }
      await deps.store.complete(scope, key, status, kept, answer, tap ? tap.hex() : undefined);
    } catch (err) {
      deps.log.error({ err, requestId: req.id }, 'idempotency record not stored');
      await deps.store.release(scope, key).catch(() => undefined);
    }
  };
  req.gw.onNoAnswer = async () => {
    await deps.store.release(scope, key).catch((err) => deps.log.error({ err, requestId: req.id }, 'idempotency key not released'));
  };
  await forward();
}
