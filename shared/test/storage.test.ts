/**
 * The attachment storage's contract: against a local directory always, and against an S3-compatible
 * bucket when one is given (STORAGE_S3_BUCKET, with STORAGE_S3_ENDPOINT and keys for MinIO:
 * `docker compose up minio`, then `mc mb local/bop-files`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { LocalDirectoryStorage, openStorage, storageSettingsFromEnv, type ObjectStorage } from '../src/storage';

async function text(stream: Readable | null): Promise<string | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function storageContract(name: string, open: () => ObjectStorage) {
  describe(`object storage: ${name}`, () => {
    const storage = open();
    const key = `contract/${randomBytes(6).toString('hex')}`;

    it('stores a stream with its size and sha256, reads it whole and by range, deletes it', async () => {
      const body = 'hello, storage: 0123456789';
      const stored = await storage.put(key, Readable.from([Buffer.from('hello, '), Buffer.from('storage: 0123456789')]));
      expect(stored).toMatchObject({ key, size: body.length, sha256: createHash('sha256').update(body).digest('hex') });
      expect(await text(await storage.get(key))).toBe(body);
      expect(await text(await storage.get(key, { start: 7, end: 13 }))).toBe('storage');
      expect(await storage.head(key)).toMatchObject({ size: body.length, sha256: stored.sha256 });
      expect(await storage.delete(key)).toBe(true);
      expect(await storage.get(key)).toBeNull();
      expect(await storage.head(key)).toBeNull();
      expect(await storage.delete(key)).toBe(false);
    });

    it('leaves nothing behind when the stream fails midway', async () => {
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(1024, 1));
          this.destroy(new Error('client went away'));
        },
      });
      await expect(storage.put(`${key}-failed`, failing)).rejects.toThrow('client went away');
      expect(await storage.head(`${key}-failed`)).toBeNull();
    });

    it('refuses keys that could leave the storage', async () => {
      for (const bad of ['../x', 'a/../../b', '/abs', 'a//b', 'spa ce']) await expect(storage.put(bad, Readable.from([Buffer.from('x')]))).rejects.toThrow(/invalid storage key/);
    });
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-storage-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
storageContract('local directory', () => new LocalDirectoryStorage(dir));

const s3 = storageSettingsFromEnv(process.env).s3;
if (s3) storageContract(`S3 bucket ${s3.bucket}`, () => openStorage({ directory: dir, s3 }));

describe('storage settings', () => {
  it('names a local directory by default and a bucket with STORAGE_S3_BUCKET', () => {
    expect(storageSettingsFromEnv({})).toEqual({ directory: path.join('./.data', 'files') });
    expect(storageSettingsFromEnv({ DATA_DIR: '/var/bop', FILES_DIR: '' }).directory).toBe('/var/bop/files');
    expect(storageSettingsFromEnv({ FILES_DIR: '/srv/files' }).directory).toBe('/srv/files');
    expect(storageSettingsFromEnv({ STORAGE_S3_BUCKET: 'b', STORAGE_S3_ENDPOINT: 'http://minio:9000', STORAGE_S3_PREFIX: '/bop/', STORAGE_S3_FORCE_PATH_STYLE: 'false' }).s3).toEqual({
      bucket: 'b',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
      prefix: 'bop',
    });
  });

  it('loads the S3 client only for a bucket', () => {
    const local = openStorage({ directory: dir });
    expect(local).toBeInstanceOf(LocalDirectoryStorage);
    const bucket = openStorage({ directory: dir, s3: { bucket: 'b', endpoint: 'http://127.0.0.1:1', region: 'us-east-1', forcePathStyle: true, prefix: '' } });
    expect(bucket.location).toBe('s3://b/ at http://127.0.0.1:1');
  });
});
