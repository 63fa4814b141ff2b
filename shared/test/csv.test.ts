// The kit's one CSV writer (people's personal-data export, time's payroll export): RFC 4180 quoting
// and the same formula escaping everywhere, with numbers left as numbers.
import { csvCellText, toCsv } from '../src/csv';

describe('toCsv', () => {
  it('quotes commas, quotes and line breaks, writes objects as JSON and null as empty, CRLF ends', () => {
    expect(toCsv([{ a: 'x', b: 'has, comma' }, { b: 'say "hi"', c: { n: 1 } }, { a: 'two\nlines', c: null }])).toBe(
      'a,b,c\r\nx,"has, comma",\r\n,"say ""hi""","{""n"":1}"\r\n"two\nlines",,\r\n',
    );
  });

  it('keeps the given columns and their order, and writes a header alone for no rows', () => {
    expect(toCsv([{ b: 2, a: 1, z: 'not listed' }], ['a', 'b'])).toBe('a,b\r\n1,2\r\n');
    expect(toCsv([], ['a', 'b'])).toBe('a,b\r\n');
  });

  it.each([
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['-12.50', '-12.50'],
    ['+3', '+3'],
    ['1e3', '1e3'],
    ['12.50', '12.50'],
    ['Lee-Smith', 'Lee-Smith'],
  ])('escapes a formula, not a number: %j → %j', (value, cell) => {
    expect(csvCellText(value)).toBe(cell);
  });
});
