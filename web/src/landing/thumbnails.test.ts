import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { PRESETS } from '../scenario/presets';
import { describeThumbnail, sparkGeometry, THUMBNAILS, thumbnailOf, type Thumbnail } from './thumbnails';

const thumb = (over: Partial<Thumbnail>): Thumbnail => ({ hash: '', kind: 'time', x: 'time (s)', y: 'goodput (Mbit/s)', series: [], ...over });

describe('the generated thumbnails', () => {
  it("cover every preset, each generated from the preset's current text", () => {
    for (const p of PRESETS) {
      const t = thumbnailOf(p.id);
      expect(t, p.id).toBeDefined();
      expect(t?.hash, p.id).toBe(`sha256:${createHash('sha256').update(p.text).digest('hex')}`);
    }
    expect(Object.keys(THUMBNAILS).sort()).toEqual(PRESETS.map((p) => p.id).sort());
  });

  it('show a sweep for a preset with a sweep and a trace over time for any other, with real numbers', () => {
    for (const p of PRESETS) {
      const t = THUMBNAILS[p.id];
      expect(t.kind === 'time', p.id).toBe(!p.scenario.sweep);
      expect(t.series.length, p.id).toBeGreaterThan(0);
      const ys = t.series.flatMap((s) => s.points.map((q) => q[1]));
      expect(ys.every((y) => Number.isFinite(y) && y >= 0), p.id).toBe(true);
      expect(Math.max(...ys), p.id).toBeGreaterThan(0);
    }
  });

  it("of a time trace have at most a few dozen points per flow, one series per flow", () => {
    const t = THUMBNAILS['winds-table5-reno-x5'];
    expect(t.series).toHaveLength(PRESETS.find((p) => p.id === 'winds-table5-reno-x5')?.scenario.flows.length ?? -1);
    for (const s of t.series) expect(s.points.length).toBeLessThanOrEqual(40);
  });
});

describe('sparkGeometry', () => {
  it('maps lines into the box, zero goodput at the bottom and the largest at the top', () => {
    const g = sparkGeometry(thumb({ series: [{ label: 'a', points: [[0, 0], [10, 4]] }, { label: 'b', points: [[0, 2], [10, 2]] }] }), 100, 50, 0);
    expect(g.lines).toEqual(['M0,50L100,0', 'M0,25L100,25']);
    expect(g.bars).toEqual([]);
  });

  it('draws bars from the baseline, the tallest filling the box', () => {
    const g = sparkGeometry(thumb({ kind: 'bars', series: [{ label: 'grid', points: [[0, 1], [1, 2]] }] }), 100, 40, 0);
    expect(g.bars).toHaveLength(2);
    expect(g.bars[1].y).toBe(0);
    expect(g.bars[1].height).toBe(40);
    expect(g.bars[0].height).toBe(20);
    expect(g.bars[0].x + g.bars[0].width).toBeLessThan(g.bars[1].x);
  });

  it('keeps a single point and an all-zero trace inside the box', () => {
    const g = sparkGeometry(thumb({ series: [{ label: 'a', points: [[5, 0]] }] }), 100, 50, 2);
    expect(g.lines[0]).toBe('M50,48Z');
  });
});

describe('describeThumbnail', () => {
  it('names what is drawn', () => {
    expect(describeThumbnail(thumb({ series: [{ label: 'a', points: [] }, { label: 'b', points: [] }] }))).toBe('Goodput over time, 2 flows');
    expect(describeThumbnail(thumb({ kind: 'sweep', x: 'topology.links[1].loss.p', series: [{ label: 'a', points: [] }] }))).toBe('Mean goodput against p');
    expect(describeThumbnail(THUMBNAILS['ctcp-fig2-tcp'])).toBe('Mean goodput against p, 7 series (at delay_ms=250)');
  });
});
