import { describe, expect, it } from 'vitest';
import { withParams } from './fragment';

describe('withParams', () => {
  it('sets its parameters and keeps the others where they were', () => {
    expect(withParams('#s=1abc-_&lesson=1&step=2', { step: '3' })).toBe('s=1abc-_&lesson=1&step=3');
    expect(withParams('preset=default', { lesson: '2', step: '3' })).toBe('preset=default&lesson=2&step=3');
  });

  it('removes the parameters given as null, and leaves an empty fragment empty', () => {
    expect(withParams('#lesson=2&step=3&s=1xyz', { lesson: null, step: null, revealed: null })).toBe('s=1xyz');
    expect(withParams('', { lesson: null })).toBe('');
    expect(withParams('#', {})).toBe('');
  });

  it('writes a list with plain commas and escapes what a fragment cannot hold', () => {
    expect(withParams('', { revealed: '1,2' })).toBe('revealed=1,2');
    expect(withParams('', { preset: 'a b&c=d' })).toBe('preset=a+b%26c%3Dd');
    expect(new URLSearchParams(withParams('', { preset: 'a b&c=d' })).get('preset')).toBe('a b&c=d');
  });
});
