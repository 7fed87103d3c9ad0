import { describe, expect, it } from 'vitest';
import { encodeScenario } from './share';
import { fragmentRun, historyMode, readFragment, resultIsOf, runsOnOpen, sameScreen, screenHash, versionNotice, readBaseline, withBaseline, type PageScreen } from './urlState';

const TEXTS: Record<string, string> = { default: '{"name":"default"}', other: '{"name":"other"}' };
const presets = { text: (id: string) => TEXTS[id], defaultId: 'default' };
const edited = '{"name":"edited", "x": 1}';

describe('what a fragment says', () => {
  it('reads a preset, a text, and no scenario as the default preset', () => {
    expect(readFragment('#preset=other&run=1', presets)).toEqual({ scenario: { ok: true, text: TEXTS.other, presetId: 'other' }, run: true, version: null });
    expect(readFragment(`#s=${encodeScenario(edited)}&v=0.1.0`, presets)).toEqual({ scenario: { ok: true, text: edited }, run: false, version: '0.1.0' });
    expect(readFragment('', presets)).toEqual({ scenario: { ok: true, text: TEXTS.default, presetId: 'default' }, run: false, version: null });
    expect(readFragment('#lesson=2&step=3', presets).scenario).toEqual({ ok: true, text: TEXTS.default, presetId: 'default' });
  });

  it('names an unknown preset and a broken scenario instead of throwing', () => {
    const unknown = readFragment('#preset=nope', presets).scenario;
    expect(unknown).toEqual({ ok: false, error: 'There is no preset called "nope".' });
    const broken = readFragment('#s=1not-a-payload!!', presets).scenario;
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).toMatch(/^This link's scenario could not be opened: /);
  });

  it('runs on opening with run=1, and an old share link (s= without v=) as before', () => {
    expect(runsOnOpen('#preset=other&run=1')).toBe(true);
    expect(runsOnOpen('#run=1')).toBe(true);
    expect(runsOnOpen('#preset=other')).toBe(false);
    expect(runsOnOpen(`#s=${encodeScenario(edited)}`)).toBe(true);
    expect(runsOnOpen(`#s=${encodeScenario(edited)}&v=0.1.0`)).toBe(false);
    expect(runsOnOpen(`#s=${encodeScenario(edited)}&v=0.1.0&run=1`)).toBe(true);
    expect(runsOnOpen(`#s=${encodeScenario(edited)}&run=0`)).toBe(false);
    expect(fragmentRun('#s=1broken!!&run=1')).toBe(true);
    expect(fragmentRun('#preset=other&run=0')).toBe(false);
  });
});

describe('what fragment a screen gives', () => {
  it('an unedited preset is short, with no version unless results are shown', () => {
    expect(screenHash('', { text: TEXTS.other, presetId: 'other', run: false }, '0.1.0')).toBe('preset=other');
    expect(screenHash('', { text: TEXTS.other, presetId: 'other', run: true }, '0.1.0')).toBe('preset=other&run=1&v=0.1.0');
  });

  it('an edited text is s=, in the place preset= had, with the lesson parameters kept', () => {
    const hash = screenHash('#preset=other&lesson=1&step=2&revealed=1,2', { text: edited, run: false }, '0.1.0');
    expect(hash).toBe(`s=${encodeScenario(edited)}&lesson=1&step=2&revealed=1,2&v=0.1.0`);
    // and back to a preset, dropping run= and v= that no longer apply
    expect(screenHash(`${hash}&run=1`, { text: TEXTS.other, presetId: 'other', run: false }, '0.1.0')).toBe('preset=other&lesson=1&step=2&revealed=1,2');
  });

  it('writes the text of a preset when asked to (a copied link), and no version before the core is known', () => {
    expect(screenHash('#preset=other&run=1&v=0.0.9', { text: TEXTS.other, presetId: 'other', run: true }, '0.1.0', true)).toBe(`s=${encodeScenario(TEXTS.other)}&run=1&v=0.1.0`);
    expect(screenHash('', { text: edited, run: false }, '')).toBe(`s=${encodeScenario(edited)}`);
  });

  it('round-trips: the fragment a screen gives reads back as that screen', () => {
    const screens: PageScreen[] = [
      { text: TEXTS.other, presetId: 'other', run: true },
      { text: TEXTS.default, presetId: 'default', run: false },
      { text: edited, run: true },
      { text: edited, run: false },
    ];
    for (const page of screens) {
      const url = readFragment(screenHash('#lesson=3&step=1', page, '0.1.0'), presets);
      expect(sameScreen(url, page)).toBe(true);
      expect(url.scenario).toEqual(page.presetId ? { ok: true, text: page.text, presetId: page.presetId } : { ok: true, text: page.text });
    }
  });
});

describe('comparing and recording screens', () => {
  it('compares by text and results, so a copied link (s= of a preset) is the same screen', () => {
    const page = { text: TEXTS.other, presetId: 'other', run: false };
    expect(sameScreen(readFragment(`#s=${encodeScenario(TEXTS.other)}`, presets), page)).toBe(true);
    expect(sameScreen(readFragment('#preset=other&run=1', presets), page)).toBe(false);
    expect(sameScreen(readFragment('#preset=default', presets), page)).toBe(false);
    expect(sameScreen(readFragment('#preset=nope', presets), page)).toBe(false);
  });

  it('pushes a preset choice and a run, replaces an edit', () => {
    const a = { text: TEXTS.default, presetId: 'default', run: false };
    expect(historyMode(a, { text: TEXTS.other, presetId: 'other', run: false })).toBe('push');
    expect(historyMode(a, { ...a, run: true })).toBe('push');
    expect(historyMode(a, { text: edited, run: false })).toBe('replace');
    expect(historyMode({ text: edited, run: true }, { text: `${edited} `, run: false })).toBe('replace');
    expect(historyMode({ ...a, run: true }, a)).toBe('replace');
  });

  it('knows a result of the same JSON whatever its layout', () => {
    expect(resultIsOf({ name: 'edited', x: 1 }, '{ "name": "edited",\n "x": 1 }')).toBe(true);
    expect(resultIsOf({ name: 'edited', x: 2 }, edited)).toBe(false);
    expect(resultIsOf(null, edited)).toBe(false);
    expect(resultIsOf({ name: 'edited' }, '{not json')).toBe(false);
  });

  it('gives a notice only for a link from another core', () => {
    expect(versionNotice('0.0.9', '0.1.0')).toMatch(/made with orbitcp core 0\.0\.9; this page runs core 0\.1\.0, so its numbers may differ/);
    expect(versionNotice('0.1.0', '0.1.0')).toBeNull();
    expect(versionNotice(null, '0.1.0')).toBeNull();
    expect(versionNotice('0.0.9', '')).toBeNull();
  });
});

describe('a baseline in the link', () => {
  it('is written beside the other parameters, read back as its text, and dropped on request', () => {
    const text = '{"version":1,"name":"baseline"}';
    const hash = withBaseline('preset=default&run=1&v=0.1.0', text);
    expect(hash.startsWith('preset=default&run=1&v=0.1.0&base=')).toBe(true);
    expect(readBaseline(`#${hash}`)).toEqual({ ok: true, text });
    expect(withBaseline(hash, null)).toBe('preset=default&run=1&v=0.1.0');
    expect(readBaseline('#preset=default')).toBeNull();
  });

  it('that cannot be opened says so, naming the baseline', () => {
    const r = readBaseline('#preset=default&base=nonsense');
    expect(r?.ok).toBe(false);
    expect(r && !r.ok && r.error).toMatch(/^This link's baseline could not be opened: /);
  });
});
