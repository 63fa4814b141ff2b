import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import { filesService } from '../src';
import { generatedBytes, person, postMultipart, startTestService, testKeys, type TestService } from '@bop/test-support';
import { PDF } from './fixtures';

const SIZE = 200 * 1024 * 1024;
let t: TestService;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-files-large-'));
  t = await startTestService(filesService, { FILES_DIR: dir, STORAGE_MAX_UPLOAD_MB: '250' });
});
// never left running (a timed-out test goes on in the background): the collections would slow every later test file of this worker
let sampler: NodeJS.Timeout | undefined;
afterAll(async () => {
  clearInterval(sampler);
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('takes a 200 MB upload streamed, with flat memory, and reads it back by ranges', async () => {
  const content = generatedBytes(SIZE, PDF);
  const expected = createHash('sha256');
  for await (const chunk of content()) expected.update(chunk);
  const sha256 = expected.digest('hex');

  // this process runs both the client and the service: the memory it holds (after collecting garbage,
  // which a busy machine may otherwise put off far past the file's size) must not grow with the file
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const held = () => {
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const baseline = held();
  let peak = baseline;
  // a full collection at each sample: twice a second, so a busy machine still gets the upload done
  sampler = setInterval(() => (peak = Math.max(peak, held())), 500);
  const token = await (await testKeys()).signer.sign(person());
  let res: Awaited<ReturnType<typeof postMultipart>>;
  try {
    res = await postMultipart(t.svc.url, '/attachments', [{ fileName: 'big.pdf', contentType: 'application/pdf', content, size: SIZE }], { 'x-internal-token': token });
  } finally {
    clearInterval(sampler);
  }
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ size: SIZE, sha256, contentType: 'application/pdf' });
  const grew = (peak - baseline) / (1024 * 1024);
  console.log(`200 MB upload: memory held grew by ${grew.toFixed(1)} MB at most`);
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
  for (const [from, to] of [[0, 1024 * 1024 - 1], [SIZE - 1024 * 1024, SIZE - 1]]) {
    const part = await fetch(`${t.svc.url}/attachments/${res.body.id}/content`, { headers: { 'x-internal-token': token, range: `bytes=${from}-${to}` } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(await expectedAt(from, to))).toBe(true);
  }
}, 300_000);
