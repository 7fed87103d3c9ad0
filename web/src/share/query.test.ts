import { describe, expect, it } from 'vitest';
import { isDebug, isEmbed } from './query';

describe("the page's query parameters", () => {
  it('ask for the embedded page by ?embed=1 only', () => {
    expect(isEmbed('?embed=1')).toBe(true);
    expect(isEmbed('?debug=1&embed=1')).toBe(true);
    expect(isEmbed('?embed=0')).toBe(false);
    expect(isEmbed('')).toBe(false);
  });

  it('ask for the crash tests by ?debug=1 only, whatever else the query holds', () => {
    expect(isDebug('?debug=1')).toBe(true);
    expect(isDebug('?embed=1&debug=1')).toBe(true);
    expect(isDebug('?debug=true')).toBe(false);
    expect(isDebug('?embed=1')).toBe(false);
  });
});
