import type { Readable } from 'node:stream';
import { S3Client, GetObjectCommand, HeadObjectCommand, DeleteObjectCommand, NotFound, NoSuchKey } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkStorageKey, Digest, type ByteRange, type ObjectStorage, type StorageSettings, type StoredObject } from './storage';

/**
 * Objects in an S3-compatible bucket. `put` streams through a multipart upload (parts of 5 MB, two at a time, so
 * a large file is never whole in memory) and keeps the content's sha256 as object metadata.
 */
export class S3ObjectStorage implements ObjectStorage {
  readonly location: string;
  private readonly client: S3Client;

  constructor(private readonly s: NonNullable<StorageSettings['s3']>) {
    this.location = `s3://${s.bucket}/${s.prefix}${s.endpoint ? ` at ${s.endpoint}` : ''}`;
    this.client = new S3Client({
      region: s.region,
      endpoint: s.endpoint,
      forcePathStyle: s.forcePathStyle,
      credentials: s.accessKeyId && s.secretAccessKey ? { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } : undefined,
      // the SDK's default CRC checksums on every request are not understood by every S3-compatible store; the sha256 is ours
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(key: string): string {
    checkStorageKey(key);
    return this.s.prefix ? `${this.s.prefix}/${key}` : key;
  }

  async put(key: string, body: Readable): Promise<StoredObject> {
    const digest = new Digest();
    body.on('error', (err) => digest.destroy(err));
    const upload = new Upload({ client: this.client, params: { Bucket: this.s.bucket, Key: this.key(key), Body: body.pipe(digest) }, partSize: 5 * 1024 * 1024, queueSize: 2 });
    await upload.done();
    const sha256 = digest.hex();
    // the hash is known only at the end of the stream: kept as a small side object, as the local storage does
    await new Upload({ client: this.client, params: { Bucket: this.s.bucket, Key: `${this.key(key)}.sha256`, Body: sha256 } }).done();
    return { key, size: digest.bytes, sha256, modifiedAt: new Date() };
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.s.bucket, Key: this.key(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
      return out.Body as Readable;
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.s.bucket, Key: this.key(key) }));
      const side = await this.client.send(new GetObjectCommand({ Bucket: this.s.bucket, Key: `${this.key(key)}.sha256` })).catch(() => null);
      const sha256 = side?.Body ? await side.Body.transformToString() : null;
      return { key, size: out.ContentLength ?? 0, sha256, modifiedAt: out.LastModified ?? new Date(0) };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<boolean> {
    const there = await this.head(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.s.bucket, Key: `${this.key(key)}.sha256` }));
    await this.client.send(new DeleteObjectCommand({ Bucket: this.s.bucket, Key: this.key(key) }));
    return there !== null;
  }
}

function missing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err instanceof NotFound || err instanceof NoSuchKey || e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}
