import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { generatedBytes, person, postMultipart, startServiceProcess, testKeys, type ServiceProcess } from '@bop/test-support';
import { PDF } from './fixtures';

const SIZE = 200 * 1024 * 1024;
// the compiled service alone in a child process: its memory is measured there (after full collections
// of its own small heap), apart from this test's client and from what earlier test files left in the
// worker's heap (full collections of that heap, twice a second, once slowed the upload past any timeout)
let t: ServiceProcess;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-files-large-'));
  t = await startServiceProcess('@svc/files', 'filesService', { FILES_DIR: dir, STORAGE_MAX_UPLOAD_MB: '250' });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('takes a 200 MB upload streamed, with flat memory, and reads it back by ranges', async () => {
  const content = generatedBytes(SIZE, PDF);
  const expected = createHash('sha256');
  for await (const chunk of content()) expected.update(chunk);
  const sha256 = expected.digest('hex');

  await t.resetMemory();
  const token = await (await testKeys()).signer.sign(person());
  const res = await postMultipart(t.url, '/attachments', [{ fileName: 'big.pdf', contentType: 'application/pdf', content, size: SIZE }], { 'x-internal-token': token });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ size: SIZE, sha256, contentType: 'application/pdf' });
  const { baseline, peak } = await t.memory();
  const grew = (peak - baseline) / (1024 * 1024);
  console.log(`200 MB upload: the files service's memory held grew by ${grew.toFixed(1)} MB at most`);
  // a buffered upload would hold all 200 MB; streamed, only the chunks in flight (S3: two 5 MB parts and the one filling)
  expect(grew).toBeLessThan(64);

  // the stored file read back by ranges: its first and its last mebibyte, byte for byte
  const expectedAt = async (from: number, to: number) => {
    const parts: Buffer[] = [];
    let at = 0;
    for await (const chunk of content()) {
      const end = at + chunk.length;
      if (end > from && at <= to) parts.push(chunk.subarray(Math.max(0, from - at), Math.min(chunk.length, to - at + 1)));
      at = end;
      if (at > to) break;
    }
    return Buffer.concat(parts);
  };
  // a token of its own: the upload's may have expired meanwhile on a slow machine (internal tokens live a minute)
  const readToken = await (await testKeys()).signer.sign(person());
  for (const [from, to] of [[0, 1024 * 1024 - 1], [SIZE - 1024 * 1024, SIZE - 1]]) {
    const part = await fetch(`${t.url}/attachments/${res.body.id}/content`, { headers: { 'x-internal-token': readToken, range: `bytes=${from}-${to}` } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(await expectedAt(from, to))).toBe(true);
  }
}, 300_000);
