import { cleanFileName, identifyContent, isAllowedType, looksLikeText, normaliseType, parseAllowList } from '../src/attachments/content-type';

describe('identifyContent', () => {
  const e = (declared: string | null, sniffed: string | null, text = false, fileName = 'f') => identifyContent({ declared, sniffed, text, fileName });

  it('takes the type the bytes show when the declared type agrees or says nothing', () => {
    expect(e('image/png', 'image/png')).toEqual({ contentType: 'image/png' });
    expect(e('IMAGE/JPG; name=x', 'image/jpeg')).toEqual({ contentType: 'image/jpeg' });
    expect(e(null, 'application/pdf')).toEqual({ contentType: 'application/pdf' });
    expect(e('application/octet-stream', 'image/png')).toEqual({ contentType: 'image/png' });
    // RFC 7578: a part without a type is text/plain, so text/plain says nothing
    expect(e('text/plain', 'image/png')).toEqual({ contentType: 'image/png' });
  });

  it('refuses bytes that contradict the declared type', () => {
    expect(e('image/png', 'application/pdf')).toEqual({ contradiction: "The file's bytes are application/pdf, not the declared image/png." });
    expect(e('image/png', null, true)).toEqual({ contradiction: "The file's bytes are text, not the declared image/png." });
    expect(e('application/pdf', null, false)).toEqual({ contradiction: "The file's bytes could not be identified as the declared application/pdf." });
  });

  it('keeps an office document identified as ZIP from a short head', () => {
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect(e(docx, 'application/zip')).toEqual({ contentType: docx });
    expect(e('image/png', 'application/zip')).toHaveProperty('contradiction');
  });

  it('names text by its declared text type or its extension', () => {
    expect(e(null, null, true, 'counts.CSV')).toEqual({ contentType: 'text/csv' });
    expect(e('text/plain', null, true, 'notes.txt')).toEqual({ contentType: 'text/plain' });
    expect(e('application/csv', null, true, 'x')).toEqual({ contentType: 'text/csv' });
    expect(e('text/html', null, true, 'x.html')).toEqual({ contentType: 'text/html' });
    expect(e(null, null, false, 'x.bin')).toEqual({ contentType: 'application/octet-stream' });
  });
});

describe('allow-list', () => {
  it('accepts exact types, wildcards and *', () => {
    const list = parseAllowList(' image/* , Application/PDF,text/csv ');
    expect(list).toEqual(['image/*', 'application/pdf', 'text/csv']);
    expect(isAllowedType('image/webp', list)).toBe(true);
    expect(isAllowedType('application/pdf', list)).toBe(true);
    expect(isAllowedType('text/plain', list)).toBe(false);
    expect(isAllowedType('application/x-msdownload', ['*'])).toBe(true);
    expect(normaliseType('  ')).toBeNull();
  });
});

describe('looksLikeText', () => {
  it('is UTF-8 without control characters, even when the sample cuts a character', () => {
    expect(looksLikeText(Buffer.from('name,qty\r\nGrüße,3\t\n'))).toBe(true);
    const cut = Buffer.from('ab€');
    expect(looksLikeText(cut.subarray(0, cut.length - 1))).toBe(true);
    expect(looksLikeText(Buffer.from([0x61, 0x00, 0x62]))).toBe(false);
    expect(looksLikeText(Buffer.from([0x61, 0xff, 0x62]))).toBe(false);
    expect(looksLikeText(Buffer.from([0xc3, 0x28, 0x61]))).toBe(false);
  });
});

describe('cleanFileName', () => {
  it('keeps the last path segment without control characters, at most 255 characters', () => {
    expect(cleanFileName('C:\\Users\\ana\\scan.pdf')).toBe('scan.pdf');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('a\u0000b\u001f.txt')).toBe('ab.txt');
    expect(cleanFileName('..')).toBeNull();
    expect(cleanFileName('')).toBeNull();
    expect(cleanFileName(`${'é'.repeat(300)}.pdf`)!.length).toBe(255);
  });
});
