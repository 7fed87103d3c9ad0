import { describe, expect, it } from 'vitest';
import { clearDraft, DRAFT_KEY, draftTime, loadDraft, saveDraft } from './draft';
import { elementSetKind, hypatiaGrid, scenarioFileName, withElementSet } from './scenarioFile';

/** A Storage in memory; `full` makes every write throw as a full localStorage does. */
function memoryStorage({ full = false } = {}): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => {
      if (full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      m.set(k, v);
    },
  };
}

describe('the draft', () => {
  it('round-trips through storage and is gone once cleared', () => {
    const s = memoryStorage();
    expect(loadDraft(s)).toBeNull();
    expect(saveDraft(s, { text: '{"seed": 18446744073709551615}', savedAt: 1000 })).toBe(true);
    expect(loadDraft(s)).toEqual({ text: '{"seed": 18446744073709551615}', savedAt: 1000 });
    clearDraft(s);
    expect(loadDraft(s)).toBeNull();
  });

  it('reports a full or missing storage instead of throwing', () => {
    expect(saveDraft(memoryStorage({ full: true }), { text: 'x', savedAt: 1 })).toBe(false);
    expect(saveDraft(null, { text: 'x', savedAt: 1 })).toBe(false);
    expect(loadDraft(null)).toBeNull();
    expect(() => clearDraft(null)).not.toThrow();
  });

  it('ignores a stored value that is not a draft', () => {
    const s = memoryStorage();
    s.setItem(DRAFT_KEY, 'not json');
    expect(loadDraft(s)).toBeNull();
    s.setItem(DRAFT_KEY, JSON.stringify({ text: 3, savedAt: 1 }));
    expect(loadDraft(s)).toBeNull();
  });

  it('reads a storage that throws on access as no draft', () => {
    const s = { getItem: () => { throw new Error('denied'); } } as unknown as Storage;
    expect(loadDraft(s)).toBeNull();
  });

  it('says when it was saved: the time today, the date another day', () => {
    const at = new Date(2026, 2, 3, 14, 5).getTime();
    expect(draftTime(at, new Date(2026, 2, 3, 18, 0).getTime())).toBe('14:05');
    expect(draftTime(at, new Date(2026, 2, 5, 9, 0).getTime())).toBe('3 Mar, 14:05');
  });
});

describe('scenario files', () => {
  it('are named after the scenario', () => {
    expect(scenarioFileName('{"name": "GEO hop: 20 MB CUBIC, PER 1%"}')).toBe('GEO-hop-20-MB-CUBIC-PER-1.json');
    expect(scenarioFileName('{"name": ""}')).toBe('scenario.json');
    expect(scenarioFileName('not json')).toBe('scenario.json');
  });
});

const TLE = 'ISS (ZARYA)\r\n1 25544U 98067A   24001.50000000  .00016717  00000-0  10270-3 0  9005\r\n2 25544  51.6416 247.4627 0006703 130.5360 325.0288 15.72125391  1234\r\n';
const constellation = (extra = '') =>
  `{"name": "c", "topology": {"kind": "constellation", "constellation": {"walker": {"altitude_km": 550, "inclination_deg": 53, "planes": 2, "sats_per_plane": 2}${extra}}, "src": "Beijing", "dst": "London"}, "flows": []}`;

describe('element-set files', () => {
  it('tells OMM JSON from TLE text', () => {
    expect(elementSetKind(TLE)).toBe('tle');
    expect(elementSetKind(' [{"OBJECT_NAME": "X"}]')).toBe('omm');
    expect(elementSetKind('[not json')).toBe('tle');
  });

  it('put TLE text into the constellation, with Unix line ends, in place of a tle_file', () => {
    const r = withElementSet(constellation(', "tle_file": "sats.tle"'), TLE);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const s = JSON.parse(r.text);
    expect(s.topology.constellation.tle).toBe(TLE.replace(/\r\n/g, '\n'));
    expect(s.topology.constellation.tle_file).toBeUndefined();
    expect(s.topology.constellation.walker.planes).toBe(2);
    expect(r.keptWalker).toBe(true);
    expect(r.kind).toBe('tle');
  });

  it("take a Hypatia tles.txt as a whole constellation: its P × S header replaces the Walker shell", () => {
    const hypatia = `2 1\nKuiper-630 0\n${TLE.split('\r\n').slice(1, 3).join('\n')}\nKuiper-630 1\n${TLE.split('\r\n').slice(1, 3).join('\n')}\n`;
    expect(hypatiaGrid(hypatia)).toEqual({ planes: 2, satsPerPlane: 1 });
    expect(hypatiaGrid(TLE)).toBeNull();
    expect(hypatiaGrid('34 34 x\n')).toBeNull();
    const r = withElementSet(constellation(), hypatia);
    expect(r).toMatchObject({ ok: true, kind: 'tle', keptWalker: false, hypatia: { planes: 2, satsPerPlane: 1, replacedWalker: true } });
    if (!r.ok) return;
    const c = JSON.parse(r.text).topology.constellation;
    expect(c.walker).toBeUndefined();
    expect(c.tle).toBe(hypatia);
    // Plain TLE text says nothing of a grid: the Walker shell stays.
    expect(withElementSet(constellation(), TLE)).toMatchObject({ ok: true, keptWalker: true, hypatia: null });
  });

  it('put OMM records in as JSON', () => {
    const r = withElementSet(constellation(), '[{"OBJECT_NAME": "X", "NORAD_CAT_ID": 1}]');
    expect(r.ok && JSON.parse(r.text).topology.constellation.omm).toEqual([{ OBJECT_NAME: 'X', NORAD_CAT_ID: 1 }]);
  });

  it('are refused for a scenario without a constellation, naming the field', () => {
    const r = withElementSet('{"name": "chain", "topology": {"kind": "chain", "links": []}}', TLE);
    expect(r).toMatchObject({ ok: false, path: 'topology.kind' });
    expect(withElementSet('{', TLE)).toMatchObject({ ok: false, path: '' });
  });
});
