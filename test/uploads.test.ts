/**
 * Uploads through the gateway (all-in-one runtime): the multipart body streams through the proxy,
 * also with an Idempotency-Key (hashed as it passes, never read whole), downloads and ranges come
 * back through it, and the service's 413 reaches the caller.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generatedBytes, http, postMultipart, startTestRuntime, type TestRuntime } from '@bop/test-support';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

let t: TestRuntime;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-uploads-'));
  // the gateway's JSON body limit far below the upload limit: an upload never goes through it
  t = await startTestRuntime({ FILES_DIR: dir, STORAGE_MAX_UPLOAD_MB: '3', REQUEST_BODY_LIMIT: '64kb' });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const send = (parts: Parameters<typeof postMultipart>[2], headers: Record<string, string> = {}) => postMultipart(t.rt.url, '/api/v1/attachments', parts, { ...t.owner, ...headers });

it('uploads, reads and downloads a file through the gateway', async () => {
  const up = await send([{ fileName: 'receipt.png', contentType: 'image/png', content: PNG }, { name: 'description', value: 'Receipt' }]);
  expect(up.status).toBe(201);
  expect(up.headers['x-request-id']).toMatch(/^req_/);
  const details = await http(t.rt.url, 'GET', `/api/v1/attachments/${up.body.id}`, { headers: t.owner });
  expect(details.body).toMatchObject({ id: up.body.id, description: 'Receipt', size: PNG.length });
  const whole = await fetch(`${t.rt.url}${up.body.contentUrl}`, { headers: t.owner });
  expect(whole.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await whole.arrayBuffer())).toEqual(PNG);
  const part = await fetch(`${t.rt.url}${up.body.contentUrl}`, { headers: { ...t.owner, range: 'bytes=1-3' } });
  expect(part.status).toBe(206);
  expect(Buffer.from(await part.arrayBuffer())).toEqual(PNG.subarray(1, 4));
  const mine = await http(t.rt.url, 'GET', '/api/v1/me/attachments', { headers: t.owner });
  expect(mine.body.data.map((a: { id: string }) => a.id)).toContain(up.body.id);
});

it('streams an upload with an Idempotency-Key: a repeat replays, other bytes under the same key are a conflict', async () => {
  const big = Buffer.concat([PDF, Buffer.alloc(512 * 1024, 'x')]);
  const headers = { 'idempotency-key': 'upload-1' };
  const first = await send([{ fileName: 'big.pdf', contentType: 'application/pdf', content: big }], headers);
  expect(first.status).toBe(201);
  const again = await send([{ fileName: 'big.pdf', contentType: 'application/pdf', content: big }], headers);
  expect(again.status).toBe(201);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body.id).toBe(first.body.id);
  const other = await send([{ fileName: 'other.pdf', contentType: 'application/pdf', content: Buffer.concat([PDF, Buffer.from('other')]) }], headers);
  expect(other.status).toBe(409);
  expect(other.body.code).toBe('conflict');
  const stored = await http(t.rt.url, 'GET', '/api/v1/attachments?limit=200', { headers: t.owner });
  expect(stored.body.data.filter((a: { fileName: string }) => a.fileName === 'big.pdf')).toHaveLength(1);
});

it('passes on the service\'s 413 for an upload over STORAGE_MAX_UPLOAD_MB, with or without a key, and stays usable', async () => {
  const huge = () => [{ fileName: 'huge.pdf', contentType: 'application/pdf', content: generatedBytes(8 * 1024 * 1024, PDF) }];
  const headers = { 'idempotency-key': 'too-big' };
  const tooBig = await send(huge(), headers);
  expect(tooBig.status).toBe(413);
  expect(tooBig.body).toMatchObject({ code: 'payload_too_large', limitMb: 3 });
  // the same upload under the same key: 413 again, replayed when the whole body had reached the gateway
  // before the answer (the key then names it), else anew (a refusal before the end of the body frees the key)
  const again = await send(huge(), headers);
  expect(again.status).toBe(413);
  const retried = await send([{ fileName: 'small.pdf', contentType: 'application/pdf', content: PDF }], { 'idempotency-key': 'small-after-huge' });
  expect(retried.status).toBe(201);
  // without a key the answer streams back, and the connection that still carried the refused body is closed
  const plain = await send([{ fileName: 'huge.pdf', contentType: 'application/pdf', content: generatedBytes(8 * 1024 * 1024, PDF) }]);
  expect(plain.status).toBe(413);
  const after = await send([{ fileName: 'after.pdf', contentType: 'application/pdf', content: PDF }]);
  expect(after.status).toBe(201);
});
