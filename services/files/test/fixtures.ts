import { postMultipart, sql, testKeys, person, type FormPart, type TestService } from '@bop/test-support';
import type { Principal } from '@bop/shared';

/** A 1×1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** The start of a PDF (its signature is all that identifies it). */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0x80, 0, 0]), Buffer.alloc(32)]);

/** Uploads through the service itself (an internal token for `as`). */
export async function upload(t: TestService, parts: FormPart[], as: Principal = person()) {
  const { signer } = await testKeys();
  return postMultipart(t.svc.url, '/attachments', parts, { 'x-internal-token': await signer.sign(as) });
}

/** A PNG uploaded (201 required) with the given form fields. */
export async function uploadedPng(t: TestService, fields: Record<string, string> = {}, as: Principal = person()) {
  const res = await upload(t, [{ fileName: 'photo.png', contentType: 'image/png', content: PNG }, ...Object.entries(fields).map(([name, value]) => ({ name, value }))], as);
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; version: number; [k: string]: unknown };
}

let n = 0;
/** A location in files' replica (organization is not running: the replica decides). */
export async function replicaLocation(t: TestService, status = 'active'): Promise<string> {
  n += 1;
  const id = `loc_files${n}`;
  await sql(t, `insert into files.locations (id, external_id, timezone, business_day_cutoff, status, org_unit_id, updated_at) values ($1, null, 'UTC', '04:00', $2, null, now())`, [id, status]);
  return id;
}
