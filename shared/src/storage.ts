import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What `head` and `put` say about a stored object. */
export interface StoredObject {
  key: string;
  size: number;
  /** hex sha256 of the content (put computes it; head reads it from the object's side file) */
  sha256: string | null;
  modifiedAt: Date;
}

/**
 * Attachment storage (the files area's): objects by key, streamed in and out. Keys are
 * `/`-separated names of letters, digits, `.`, `_` and `-` (no `..`), so a key is never a path
 * outside the storage.
 */
export interface ObjectStorage {
  /** where the objects live, for messages (`/var/lib/bop/files`) */
  readonly location: string;
  put(key: string, body: Readable): Promise<StoredObject>;
  /** the content (or the inclusive byte range `range` of it), or null when there is no such object */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  head(key: string): Promise<StoredObject | null>;
  /** true when something was deleted */
  delete(key: string): Promise<boolean>;
}

/** Bytes `start` to `end`, both inclusive (as an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

const KEY = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/;

export function checkStorageKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..') || key.length > 512) {
    throw new Error(`invalid storage key ${JSON.stringify(key)}: letters, digits, '.', '_', '-' in '/'-separated parts, no '..'`);
  }
  return key;
}

/** A pass-through that counts and hashes (sha256) what flows through it. */
export class Digest extends Transform {
  private readonly hash = createHash('sha256');
  /** bytes seen so far (not `size`: an S3 upload would read that as the body's length) */
  bytes = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null, data?: Buffer) => void): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }

  hex(): string {
    return this.hash.digest('hex');
  }
}

/**
 * Objects as files under one directory: written to a temporary name and renamed, so a reader never
 * sees half an object; the sha256 sits beside it as `<key>.sha256`.
 */
export class LocalDirectoryStorage implements ObjectStorage {
  constructor(readonly location: string) {}

  private file(key: string): string {
    return path.join(this.location, ...checkStorageKey(key).split('/'));
  }

  async put(key: string, body: Readable): Promise<StoredObject> {
    const file = this.file(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${randomBytes(6).toString('hex')}.partial`;
    const digest = new Digest();
    try {
      await pipeline(body, digest, fs.createWriteStream(temp, { flags: 'wx' }));
      const sha256 = digest.hex();
      await fs.promises.writeFile(`${file}.sha256`, sha256);
      await fs.promises.rename(temp, file);
      const stat = await fs.promises.stat(file);
      return { key, size: digest.bytes, sha256, modifiedAt: stat.mtime };
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    const file = this.file(key);
    try {
      const handle = await fs.promises.open(file, 'r');
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async head(key: string): Promise<StoredObject | null> {
    const file = this.file(key);
    try {
      const stat = await fs.promises.stat(file);
      const sha256 = await fs.promises.readFile(`${file}.sha256`, 'utf8').catch(() => null);
      return { key, size: stat.size, sha256, modifiedAt: stat.mtime };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<boolean> {
    const file = this.file(key);
    await fs.promises.rm(`${file}.sha256`, { force: true });
    try {
      await fs.promises.unlink(file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }
}

/** Where attachments are stored: an S3-compatible bucket when `bucket` is set, else a local directory. */
export interface StorageSettings {
  /** the local directory (FILES_DIR, or DATA_DIR/files) */
  directory: string;
  s3?: {
    bucket: string;
    /** an S3-compatible endpoint (MinIO, R2 …); unset: AWS */
    endpoint?: string;
    region: string;
    accessKeyId?: string;
    secretAccessKey?: string;
    forcePathStyle: boolean;
    /** a key prefix inside the bucket */
    prefix: string;
  };
}

/** The storage the settings name (the S3 client is loaded only when a bucket is set). */
export function openStorage(settings: StorageSettings): ObjectStorage {
  if (settings.s3) {
    const { S3ObjectStorage } = require('./storage-s3') as typeof import('./storage-s3');
    return new S3ObjectStorage(settings.s3);
  }
  return new LocalDirectoryStorage(path.resolve(settings.directory));
}

/** The storage settings of an environment: `STORAGE_S3_*` (bucket set: S3), else FILES_DIR or DATA_DIR/files. */
export function storageSettingsFromEnv(env: Record<string, string | undefined>): StorageSettings {
  const directory = env.FILES_DIR || path.join(env.DATA_DIR || './.data', 'files');
  const bucket = env.STORAGE_S3_BUCKET?.trim();
  if (!bucket) return { directory };
  return {
    directory,
    s3: {
      bucket,
      endpoint: env.STORAGE_S3_ENDPOINT || undefined,
      region: env.STORAGE_S3_REGION || 'us-east-1',
      accessKeyId: env.STORAGE_S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: env.STORAGE_S3_SECRET_ACCESS_KEY || undefined,
      forcePathStyle: (env.STORAGE_S3_FORCE_PATH_STYLE ?? 'true').toLowerCase() !== 'false',
      prefix: (env.STORAGE_S3_PREFIX ?? '').replace(/^\/+|\/+$/g, ''),
    },
  };
}
