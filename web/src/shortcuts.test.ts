import { describe, expect, it } from 'vitest';
import { shortcutFor, type KeyPress } from './shortcuts';

const key = (k: string, over: Partial<KeyPress> = {}): KeyPress => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, defaultPrevented: false, repeat: false, ...over });
const idle = { canRun: true, running: false, dialogOpen: false };
const busy = { canRun: true, running: true, dialogOpen: false };

describe('keyboard shortcuts', () => {
  it('Ctrl+Enter and Cmd+Enter run a valid scenario, not a running or invalid one', () => {
    expect(shortcutFor(key('Enter', { ctrlKey: true }), idle)).toBe('run');
    expect(shortcutFor(key('Enter', { metaKey: true }), idle)).toBe('run');
    expect(shortcutFor(key('Enter', { ctrlKey: true }), busy)).toBeNull();
    expect(shortcutFor(key('Enter', { ctrlKey: true }), { ...idle, canRun: false })).toBeNull();
  });

  it('plain Enter and other modifiers do nothing (the editor needs Enter)', () => {
    expect(shortcutFor(key('Enter'), idle)).toBeNull();
    expect(shortcutFor(key('Enter', { ctrlKey: true, shiftKey: true }), idle)).toBeNull();
    expect(shortcutFor(key('Enter', { ctrlKey: true, altKey: true }), idle)).toBeNull();
    expect(shortcutFor(key('Enter', { ctrlKey: true, repeat: true }), idle)).toBeNull();
  });

  it('Esc cancels a run under way, unless a dialog wants it or a handler used it', () => {
    expect(shortcutFor(key('Escape'), busy)).toBe('cancel');
    expect(shortcutFor(key('Escape'), idle)).toBeNull();
    expect(shortcutFor(key('Escape'), { ...busy, dialogOpen: true })).toBeNull();
    expect(shortcutFor(key('Escape', { defaultPrevented: true }), busy)).toBeNull();
  });
});
