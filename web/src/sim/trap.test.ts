import { describe, expect, it } from 'vitest';
import { OUT_OF_MEMORY_BYTES, trapMessage } from './trap';

describe('trapMessage', () => {
  it('reports a panic with its message', () => {
    expect(trapMessage('index out of bounds', 'unreachable', 64 << 20)).toBe('the simulator panicked: index out of bounds');
  });

  it('reports a trap without a panic on a full heap as running out of memory', () => {
    const m = trapMessage('', 'unreachable', OUT_OF_MEMORY_BYTES * 3);
    expect(m).toContain('needed more memory than this tab has');
    expect(m).toContain('3072 MB');
  });

  it('reports an allocation failure as running out of memory whatever the heap', () => {
    expect(trapMessage('', 'memory allocation of 8 bytes failed', 1 << 20)).toContain('more memory');
  });

  it('reports any other trap as an internal error with its message', () => {
    expect(trapMessage('', 'unreachable', 32 << 20)).toBe('the simulator stopped with an internal error (unreachable)');
  });
});
