import { describe, expect, it } from 'vitest';
import { cleanFileName } from './stored-file.ts';

describe('cleanFileName', () => {
  it('keeps the last path segment without control or quoting characters', () => {
    expect(cleanFileName('C:\\Users\\anna\\scan.pdf')).toBe('scan.pdf');
    expect(cleanFileName('a\u0000b\n"c".png')).toBe('abc.png');
    expect(cleanFileName('///')).toBe('attachment');
  });

  it('removes every bidirectional control, so a name shows the extension it has', () => {
    expect(cleanFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    const controls = [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u061C',
    ];
    expect(cleanFileName(`a${controls.join('')}b.pdf`)).toBe('ab.pdf');
    expect(cleanFileName('\u202E\u2067')).toBe('attachment');
    // Letters of right-to-left scripts stay: only the invisible controls go.
    expect(cleanFileName('\u05D7\u05E9\u05D1\u05D5\u05DF.pdf')).toBe('\u05D7\u05E9\u05D1\u05D5\u05DF.pdf');
  });
});
