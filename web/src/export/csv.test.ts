import { describe, expect, it } from 'vitest';
import { csvField } from './csv';

describe('csvField', () => {
  it('leaves numbers alone, negative ones included', () => {
    expect(csvField(-1.5)).toBe('-1.5');
    expect(csvField(0.01)).toBe('0.01');
  });

  it('keeps a text cell from starting a spreadsheet formula', () => {
    for (const s of ['=HYPERLINK("http://x")', '+1', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd']) {
      const cell = csvField(s);
      expect(cell.replace(/^"/, '').startsWith("'"), cell).toBe(true);
    }
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=a,b')).toBe(`"'=a,b"`);
  });

  it('writes other values as JSON', () => {
    expect(csvField(['reno', 0.1])).toBe('"[""reno"",0.1]"');
    expect(csvField(true)).toBe('true');
  });
});
