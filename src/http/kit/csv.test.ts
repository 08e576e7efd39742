import { describe, expect, it } from 'vitest';
import { csvRecords, neutraliseFormula } from './csv.ts';

describe('csvRecords', () => {
  it('quotes only the cells that need it, doubling quotes, with CRLF after every record', () => {
    expect(csvRecords([['a', '', 'x"y', 'a,b', 'l\nm', 'c\rd', '-5.00', "it's"], ['b']])).toBe(
      'a,,"x""y","a,b","l\nm","c\rd",-5.00,it\'s\r\nb\r\n',
    );
  });

  it('quotes every cell, empty ones too, when asked', () => {
    expect(csvRecords([['a', '', 'x"y', '5']], { quoteAll: true })).toBe('"a","","x""y","5"\r\n');
  });

  it('writes nothing for no records', () => {
    expect(csvRecords([])).toBe('');
  });
});

describe('neutraliseFormula', () => {
  it('prefixes an apostrophe to text a spreadsheet would run as a formula, and leaves the rest', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1']) expect(neutraliseFormula(text)).toBe(`'${text}`);
    for (const text of ['', 'Maya', '1-1', "'=1", ' =1']) expect(neutraliseFormula(text)).toBe(text);
  });
});
