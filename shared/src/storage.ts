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
  /** the content, or null when there is no such object */
  get(key: string): Promise<Readable | null>;
  head(key: string): Promise<StoredObject | null>;
  /** true when something was deleted */
  delete(key: string): Promise<boolean>;
}

const KEY = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/;

export function checkStorageKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..') || key.length > 512) {
    throw new Error(`invalid storage key ${JSON.stringify(key)}: letters, digits, '.', '_', '-' in '/'-separated parts, no '..'`);
  }
  return key;
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
    const hash = createHash('sha256');
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, count, fs.createWriteStream(temp, { flags: 'wx' }));
      const sha256 = hash.digest('hex');
      await fs.promises.writeFile(`${file}.sha256`, sha256);
      await fs.promises.rename(temp, file);
      const stat = await fs.promises.stat(file);
      return { key, size, sha256, modifiedAt: stat.mtime };
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Readable | null> {
    const file = this.file(key);
    try {
      const handle = await fs.promises.open(file, 'r');
      return handle.createReadStream();
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
