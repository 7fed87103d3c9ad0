import { describe, expect, it } from 'vitest';
import { getAt, pathSegments, setAt } from './jsonPath';

describe('JSON paths', () => {
  it('splits a path into field names and list indices', () => {
    expect(pathSegments('topology.links[1].loss.p')).toEqual(['topology', 'links', 1, 'loss', 'p']);
    expect(pathSegments('sweep.grid')).toEqual(['sweep', 'grid']);
    expect(pathSegments('a[0][2]')).toEqual(['a', 0, 2]);
    // Not of the form name[i]: one field name as written.
    expect(pathSegments('x[y]')).toEqual(['x[y]']);
  });

  it('reads a value, and undefined where a step is missing or of the wrong kind', () => {
    const s = { topology: { links: [{ rate_mbps: 10 }, { rate_mbps: 20, loss: { p: 0.1 } }] }, seed: 3 };
    expect(getAt(s, 'topology.links[1].loss.p')).toBe(0.1);
    expect(getAt(s, 'topology.links[0].rate_mbps')).toBe(10);
    expect(getAt(s, 'topology.links[2].rate_mbps')).toBeUndefined();
    expect(getAt(s, 'topology.links.rate_mbps')).toBeUndefined();
    expect(getAt(s, 'seed.x')).toBeUndefined();
    expect(getAt(s, 'topology[0]')).toBeUndefined();
  });

  it('sets a value in place and keeps everything else', () => {
    const s = { name: 'x', topology: { links: [{ rate_mbps: 10, delay_ms: 5 }] }, flows: [{ cc: 'reno' }] };
    setAt(s, 'topology.links[0].rate_mbps', 50);
    setAt(s, 'flows[0].cc', 'cubic');
    expect(s).toEqual({ name: 'x', topology: { links: [{ rate_mbps: 50, delay_ms: 5 }] }, flows: [{ cc: 'cubic' }] });
  });

  it('creates the objects and lists on the way, and replaces a null step', () => {
    const s: Record<string, unknown> = { topology: { links: [{ loss: null }] } };
    setAt(s, 'topology.links[0].loss.p', 0.01);
    setAt(s, 'sweep.grid', { seed: [1, 2] });
    setAt(s, 'extra.list[0].v', 1);
    expect(s).toEqual({ topology: { links: [{ loss: { p: 0.01 } }] }, sweep: { grid: { seed: [1, 2] } }, extra: { list: [{ v: 1 }] } });
  });

  it('removes a field when given undefined', () => {
    const s = { flows: [{ cc: 'reno', label: 'a' }] };
    setAt(s, 'flows[0].label', undefined);
    setAt(s, 'flows[0].missing.deeper', undefined);
    // Removing creates nothing on the way.
    expect(s).toEqual({ flows: [{ cc: 'reno' }] });
  });

  it('leaves the value unchanged where a step is of the wrong kind or an index is past the end', () => {
    const s = { seed: 1, flows: [{ cc: 'reno' }] };
    const before = structuredClone(s);
    setAt(s, 'seed.x', 2);
    setAt(s, 'flows.cc', 'x');
    setAt(s, 'flows[3].cc', 'x');
    expect(s).toEqual(before);
  });

  it('never writes into an exact big integer', () => {
    const J = JSON as typeof JSON & { rawJSON?: (t: string) => unknown };
    if (!J.rawJSON) return;
    const s = { seed: J.rawJSON('18446744073709551615') };
    setAt(s, 'seed.x', 1);
    expect(getAt(s, 'seed.x')).toBeUndefined();
    expect(JSON.stringify(s)).toBe('{"seed":18446744073709551615}');
  });
});
