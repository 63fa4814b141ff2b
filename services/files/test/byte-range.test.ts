import { chooseRange } from '../src/attachments/byte-range';

describe('chooseRange', () => {
  const etag = '"abc"';
  it('answers one byte range, the whole file, or unsatisfiable', () => {
    expect(chooseRange(100, undefined, undefined, etag)).toEqual({ kind: 'full' });
    expect(chooseRange(100, 'bytes=0-9', undefined, etag)).toEqual({ kind: 'partial', start: 0, end: 9 });
    expect(chooseRange(100, 'bytes=90-', undefined, etag)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(chooseRange(100, 'bytes=-10', undefined, etag)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(chooseRange(100, 'bytes=50-500', undefined, etag)).toEqual({ kind: 'partial', start: 50, end: 99 });
    expect(chooseRange(100, 'bytes=100-200', undefined, etag)).toEqual({ kind: 'unsatisfiable' });
    // overlapping ranges combine into one
    expect(chooseRange(100, 'bytes=0-10,5-20', undefined, etag)).toEqual({ kind: 'partial', start: 0, end: 20 });
  });

  it('ignores what it may ignore: malformed, several ranges, another unit, a stale If-Range', () => {
    expect(chooseRange(100, 'bytes=abc', undefined, etag)).toEqual({ kind: 'full' });
    expect(chooseRange(100, 'bytes=0-1,50-60', undefined, etag)).toEqual({ kind: 'full' });
    expect(chooseRange(100, 'items=0-1', undefined, etag)).toEqual({ kind: 'full' });
    expect(chooseRange(100, 'bytes=0-1', '"old"', etag)).toEqual({ kind: 'full' });
    expect(chooseRange(100, 'bytes=0-1', etag, etag)).toEqual({ kind: 'partial', start: 0, end: 1 });
  });
});
