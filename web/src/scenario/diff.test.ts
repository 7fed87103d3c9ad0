import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { changeLabel, describeChanges, pointWords, scenarioChanges } from './diff';

const preset = (id: string) => JSON.parse(readFileSync(new URL(`../../../scenarios/${id}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('scenario changes', () => {
  it('names an edited congestion control and loss rate as a teacher would say them', () => {
    const before = preset('default');
    const after = structuredClone(before) as { flows: { cc: string }[]; topology: { links: { loss?: { p: number } }[] } };
    after.flows[0].cc = 'hybla';
    const lossy = after.topology.links.find((l) => l.loss)!;
    lossy.loss!.p = 0.02;
    const changes = scenarioChanges(before, after);
    expect(changes.map((c) => c.path)).toEqual(['topology.links[1].loss.p', 'flows[0].cc']);
    expect(describeChanges(changes)).toBe('link 2 loss: 1 % → 2 %, cc: cubic → hybla');
  });

  it('finds nothing between a scenario and its copy, nor in its name and description', () => {
    const a = preset('leo-beijing-newyork-1600');
    const b = { ...structuredClone(a), name: 'renamed', description: 'other words' };
    expect(scenarioChanges(a, b)).toEqual([]);
  });

  it('says a field only one side has, and numbers flows when there are several', () => {
    const a = { flows: [{ cc: 'reno' }, { cc: 'cubic' }], duration_s: 60 };
    const b = { flows: [{ cc: 'reno' }, { cc: 'cubic', start_s: 5 }], duration_s: 120 };
    expect(describeChanges(scenarioChanges(a, b))).toBe('flow 2 start: none → 5 s, duration: 60 s → 120 s');
  });

  it('spells out a few changes and counts the rest', () => {
    const a = { a_ms: 1, b_ms: 1, c_ms: 1, d_ms: 1, e_ms: 1, f_ms: 1 };
    const b = { a_ms: 2, b_ms: 2, c_ms: 2, d_ms: 2, e_ms: 2, f_ms: 2 };
    expect(describeChanges(scenarioChanges(a, b))).toBe('a: 1 ms → 2 ms, b: 1 ms → 2 ms, c: 1 ms → 2 ms, d: 1 ms → 2 ms and 2 more changes');
  });

  it('labels paths without the containers people do not name', () => {
    expect(changeLabel(['topology', 'constellation', 'walker', 'planes'], 1)).toBe('walker planes');
    expect(changeLabel(['flows', 0, 'cc'], 3)).toBe('flow 1 cc');
    expect(changeLabel(['topology', 'links', 1, 'loss', 'p'], 1)).toBe('link 2 loss');
  });

  it('writes a swept value with its field and unit', () => {
    expect(pointWords('topology.links[1].delay_ms', 250, 1)).toBe('link 2 delay 250 ms');
    expect(pointWords('flows[0].cc', 'htcp', 1)).toBe('cc htcp');
  });
});
