import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { fileTypeFromBuffer } from 'file-type/core';
import { ApiError, BadRequest, badTextReason, openStorage, storageSettingsFromEnv, ValidationError, type ObjectStorage, type StoredObject } from '@bop/shared';
import type { FilesConfig } from '../config';
import { cleanFileName, identifyContent, isAllowedType, looksLikeText, normaliseType, parseAllowList } from './content-type';

/** How many first bytes identify a file (file-type reads up to 4,100 for its signatures). */
const HEAD_BYTES = 4100;
/** Room for the form's text fields and part headers on top of the file itself. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;
const FIELD_MAX_BYTES = 8 * 1024;

export interface UploadLimits {
  maxBytes: number;
  /** the setting's name and value, for the 413's detail */
  maxMb: number;
  allowList: readonly string[];
}

/** The storage the settings name: STORAGE_S3_* when a bucket is set, else FILES_DIR or DATA_DIR/files. */
export function attachmentStorage(config: FilesConfig): ObjectStorage {
  return openStorage(storageSettingsFromEnv(config as unknown as Record<string, string | undefined>));
}

export function uploadLimits(config: FilesConfig): UploadLimits {
  return { maxBytes: Math.floor(config.STORAGE_MAX_UPLOAD_MB * 1024 * 1024), maxMb: config.STORAGE_MAX_UPLOAD_MB, allowList: parseAllowList(config.STORAGE_ALLOWED_TYPES) };
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  fileName: string;
  contentType: string;
  stored: StoredObject;
}

export function payloadTooLarge(limits: UploadLimits): ApiError {
  return new ApiError(
    'payload_too_large',
    `The file is larger than the upload limit of ${limits.maxMb} MB (setting STORAGE_MAX_UPLOAD_MB).`,
    [{ path: 'file', message: `At most ${limits.maxBytes} bytes.` }],
    { limitBytes: limits.maxBytes, limitMb: limits.maxMb },
    { Connection: 'close' },
  );
}

/**
 * Reads a multipart/form-data upload as it arrives: its text fields, and its one `file` part streamed
 * into the storage under `key` (never whole in memory). The first bytes decide the content type
 * (content-type.ts); a file the allow-list refuses or whose bytes contradict the declared type is not
 * stored. Over the limit, reading stops, what was written is removed, and the answer is 413 with the
 * connection closed. On any refusal nothing is left in the storage.
 */
export function receiveUpload(req: IncomingMessage, storage: ObjectStorage, key: string, limits: UploadLimits): Promise<ReceivedUpload> {
  const type = normaliseType(req.headers['content-type']);
  if (type !== 'multipart/form-data') throw new BadRequest('Send the file as multipart/form-data, in a part named `file`.');
  const declaredLength = Number(req.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > limits.maxBytes + FORM_OVERHEAD_BYTES) throw payloadTooLarge(limits);

  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fileSize: limits.maxBytes, fields: 20, fieldSize: FIELD_MAX_BYTES, parts: 40 } });
  } catch (err) {
    throw new BadRequest(`The multipart body cannot be read: ${(err as Error).message}.`);
  }

  return new Promise<ReceivedUpload>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const fieldErrors: Array<{ path: string; message: string }> = [];
    let storing: Promise<{ stored: StoredObject; fileName: string; contentType: string } | null> | null = null;
    let tooLarge = false;
    let settled = false;
    let fileStream: Readable | null = null;

    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(bb);
      // the storage's write stops (and removes its temporary file)
      fileStream?.destroy(new Error('upload refused'));
      // what was stored (or is being stored) goes
      void storing?.then((s) => (s ? storage.delete(key) : false)).catch(() => undefined);
      reject(err);
    };

    bb.on('field', (name, value, info) => {
      if (name === 'file') fieldErrors.push({ path: 'file', message: 'The part named `file` carries no file name: send it as a file.' });
      else if (info.valueTruncated) fieldErrors.push({ path: name, message: `At most ${FIELD_MAX_BYTES} bytes.` });
      else {
        const bad = badTextReason(value);
        if (bad) fieldErrors.push({ path: name, message: bad });
        else fields[name] = value;
      }
    });

    bb.on('file', (name, stream, info) => {
      if (name !== 'file' || storing !== null) {
        fieldErrors.push({ path: name, message: name !== 'file' ? 'Unexpected file part: send the file in the part named `file`.' : 'Send exactly one file.' });
        stream.resume();
        return;
      }
      fileStream = stream;
      stream.on('limit', () => {
        tooLarge = true;
        fail(payloadTooLarge(limits));
      });
      storing = storeFile(stream, info, storage, key, limits).catch((err) => {
        if (!(err instanceof ApiError)) throw err;
        fieldErrors.push(...(err.errors ?? [{ path: 'file', message: err.detail ?? err.message }]));
        return null;
      });
      storing.catch(fail);
    });

    bb.on('filesLimit', () => fieldErrors.push({ path: 'file', message: 'Send exactly one file.' }));
    bb.on('fieldsLimit', () => fieldErrors.push({ path: '', message: 'Too many form fields.' }));
    bb.on('partsLimit', () => fieldErrors.push({ path: '', message: 'Too many form parts.' }));
    bb.on('error', (err) => fail(new BadRequest(`The multipart body cannot be read: ${(err as Error).message}.`)));
    req.on('aborted', () => fail(new BadRequest('The upload was not sent completely.')));
    req.on('error', (err) => fail(err));

    bb.on('close', () => {
      void (async () => {
        const file = storing ? await storing : null;
        if (settled || tooLarge) return;
        if (!file && !fieldErrors.some((e) => e.path === 'file')) fieldErrors.push({ path: 'file', message: 'Add the file as a part named `file`.' });
        if (fieldErrors.length > 0) {
          if (file) await storage.delete(key).catch(() => undefined);
          settled = true;
          reject(new ValidationError(fieldErrors, 'The upload has invalid parts.'));
          return;
        }
        settled = true;
        resolve({ fields, fileName: file!.fileName, contentType: file!.contentType, stored: file!.stored });
      })().catch(fail);
    });

    req.pipe(bb);
  });
}

/** The file part: its first bytes identified and checked, then all of it streamed into the storage. */
async function storeFile(
  stream: Readable,
  info: busboy.FileInfo,
  storage: ObjectStorage,
  key: string,
  limits: UploadLimits,
): Promise<{ stored: StoredObject; fileName: string; contentType: string }> {
  const chunks = stream[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < HEAD_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value as Buffer);
    headLength += (next.value as Buffer).length;
  }
  const first = Buffer.concat(head);
  const drain = async () => {
    if (!ended) for await (const _ of { [Symbol.asyncIterator]: () => chunks }) void _;
  };
  const refuse = async (message: string): Promise<never> => {
    await drain();
    throw new ValidationError([{ path: 'file', message }]);
  };
  const fileName = cleanFileName(info.filename);
  if (fileName === null) return refuse('The file part needs a file name.');
  if (first.length === 0) return refuse('The file is empty.');
  const sniffed = await fileTypeFromBuffer(first.subarray(0, HEAD_BYTES));
  const decision = identifyContent({ declared: info.mimeType, sniffed: sniffed?.mime ?? null, text: looksLikeText(first.subarray(0, HEAD_BYTES)), fileName });
  if ('contradiction' in decision) return refuse(decision.contradiction);
  if (!isAllowedType(decision.contentType, limits.allowList)) {
    return refuse(`Files of type ${decision.contentType} are not accepted (setting STORAGE_ALLOWED_TYPES: ${limits.allowList.join(', ')}).`);
  }
  const body = Readable.from(
    (async function* () {
      yield first;
      if (!ended) for await (const chunk of { [Symbol.asyncIterator]: () => chunks }) yield chunk as Buffer;
    })(),
    { objectMode: false },
  );
  const stored = await storage.put(key, body);
  return { stored, fileName, contentType: decision.contentType };
}
