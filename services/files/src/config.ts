import { z } from 'zod';
import type { BaseConfig } from '@bop/shared';

/** The types accepted by default: photos, PDFs, plain text and CSV, Word and Excel documents. */
export const DEFAULT_ALLOWED_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/heic',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
].join(',');

export const configSchema = z.object({
  /** spec: Limits, upload size (our default: 25 MB) */
  STORAGE_MAX_UPLOAD_MB: z.coerce.number().positive().max(5 * 1024).default(25),
  /** content types accepted, comma-separated, as identified from the bytes (`*` accepts any) */
  STORAGE_ALLOWED_TYPES: z.string().default(DEFAULT_ALLOWED_TYPES),
  /** the local storage: FILES_DIR, else DATA_DIR/files */
  DATA_DIR: z.string().default('./.data'),
  FILES_DIR: z.string().optional(),
  /** S3-compatible storage instead of the local directory: set the bucket (and the endpoint for MinIO, R2 …) */
  STORAGE_S3_BUCKET: z.string().optional(),
  STORAGE_S3_ENDPOINT: z.string().url().optional(),
  STORAGE_S3_REGION: z.string().default('us-east-1'),
  STORAGE_S3_ACCESS_KEY_ID: z.string().optional(),
  STORAGE_S3_SECRET_ACCESS_KEY: z.string().optional(),
  STORAGE_S3_FORCE_PATH_STYLE: z.string().optional(),
  STORAGE_S3_PREFIX: z.string().optional(),
  /** bytes stored by an upload never recorded (the process died in between) are removed this long after it began (default 6 h: longer than any upload takes) */
  FILES_UPLOAD_ORPHAN_AFTER_MS: z.coerce.number().int().min(60_000).default(6 * 3_600_000),
});

export type FilesConfig = BaseConfig & z.output<typeof configSchema>;
