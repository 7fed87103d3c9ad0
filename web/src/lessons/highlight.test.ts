import { describe, expect, it } from 'vitest';
import { addToken, removeToken } from './highlight';

describe("the highlight's aria-describedby list", () => {
  it('adds the note once, after what the element already names', () => {
    expect(addToken(null, 'note')).toBe('note');
    expect(addToken('', 'note')).toBe('note');
    expect(addToken('caption-1', 'note')).toBe('caption-1 note');
    expect(addToken('caption-1 note', 'note')).toBe('caption-1 note');
  });

  it('takes only the note away, and nothing is left of a list of the note alone', () => {
    expect(removeToken('caption-1 note', 'note')).toBe('caption-1');
    expect(removeToken('  note  ', 'note')).toBeNull();
    expect(removeToken(null, 'note')).toBeNull();
    expect(removeToken('notes note-2', 'note')).toBe('notes note-2');
  });
});
