/** The kit's attachment storage on a real directory. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { LocalDirectoryStorage } from '@bop/shared';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bop-storage-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('LocalDirectoryStorage', () => {
  it('puts, heads, gets and deletes an object by key', async () => {
    const storage = new LocalDirectoryStorage(dir);
    const stored = await storage.put('loc_1/receipts/r-1.txt', Readable.from(['hello ', 'world']));
    expect(stored).toMatchObject({ key: 'loc_1/receipts/r-1.txt', size: 11, sha256: 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9' });
    expect(await storage.head('loc_1/receipts/r-1.txt')).toMatchObject({ size: 11, sha256: stored.sha256 });
    expect(await text((await storage.get('loc_1/receipts/r-1.txt'))!)).toBe('hello world');
    // a second put replaces the object whole
    await storage.put('loc_1/receipts/r-1.txt', Readable.from(['bye']));
    expect(await text((await storage.get('loc_1/receipts/r-1.txt'))!)).toBe('bye');
    expect(await storage.delete('loc_1/receipts/r-1.txt')).toBe(true);
    expect(await storage.delete('loc_1/receipts/r-1.txt')).toBe(false);
    expect(await storage.head('loc_1/receipts/r-1.txt')).toBeNull();
    expect(await storage.get('loc_1/receipts/r-1.txt')).toBeNull();
  });

  it('refuses keys that could leave the directory', async () => {
    const storage = new LocalDirectoryStorage(dir);
    for (const key of ['../escape', 'a/../../b', '/abs', 'a//b', '', 'a\\b', '.']) {
      await expect(storage.put(key, Readable.from(['x']))).rejects.toThrow(/invalid storage key/);
    }
    await expect(storage.get('../x')).rejects.toThrow(/invalid storage key/);
  });

  it('leaves no partial object when the body fails midway', async () => {
    const storage = new LocalDirectoryStorage(dir);
    const failing = new Readable({
      read() {
        this.push('part');
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.put('broken', failing)).rejects.toThrow('client went away');
    expect(await storage.head('broken')).toBeNull();
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('broken'))).toEqual([]);
  });
});
