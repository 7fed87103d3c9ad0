import { describe, expect, it } from 'vitest';
import { assignErrors, FormErrors } from './formErrors';
import type { FieldError } from '../sim/protocol';

const at = (path: string, message: string, sweep_point?: [string, unknown][]): FieldError => ({ path, message, sweep_point });

describe('assigning errors to the places of the form', () => {
  const errors = [
    at('topology.links[1].loss.p', 'must be a probability between 0 and 1 (got 1.5)'),
    at('topology.links[1].delay', 'unknown field `delay`'),
    at('flows[0].cc', 'unknown value "cubc"'),
    at('version', 'must be 1 (got 2)'),
    at('', 'missing field `name`'),
  ];
  const places = ['topology', 'topology.links[1]', 'topology.links[1].loss', 'topology.links[1].loss.p', 'flows', 'flows[0]', 'flows[0].cc', 'name'];

  it('gives each error to the most specific place that holds it, and the rest to the general list', () => {
    const a = assignErrors(errors, places);
    expect(Object.fromEntries(a.byPlace)).toEqual({
      'topology.links[1].loss.p': ['must be a probability between 0 and 1 (got 1.5)'],
      // Beside a group, an error inside it keeps the rest of its path.
      'topology.links[1]': ['delay: unknown field `delay`'],
      'flows[0].cc': ['unknown value "cubc"'],
    });
    expect(a.general).toEqual(['version: must be 1 (got 2)', 'scenario: missing field `name`']);
  });

  it('does not depend on the order of the places', () => {
    const forward = assignErrors(errors, places);
    const backward = assignErrors(errors, [...places].reverse());
    expect(Object.fromEntries(backward.byPlace)).toEqual(Object.fromEntries(forward.byPlace));
    expect(backward.general).toEqual(forward.general);
  });

  it('falls back to the group when the field is not on screen', () => {
    // A Bernoulli field's error while the form shows another loss model: at the loss select.
    const a = assignErrors([at('topology.links[0].loss.p', 'unknown field `p`')], ['topology', 'topology.links[0]', 'topology.links[0].loss']);
    expect(a.byPlace.get('topology.links[0].loss')).toEqual(['p: unknown field `p`']);
  });

  it('matches at element and field boundaries only', () => {
    const a = assignErrors([at('topology.links[10].delay_ms', 'bad'), at('flows[0].start_s', 'bad')], ['topology.links[1]', 'flows[0].start', 'topology']);
    expect(a.byPlace.get('topology.links[1]')).toBeUndefined();
    expect(a.byPlace.get('flows[0].start')).toBeUndefined();
    expect(a.byPlace.get('topology')).toEqual(['links[10].delay_ms: bad']);
    expect(a.general).toEqual(['flows[0].start_s: bad']);
  });

  it("puts a sweep point's error at the axis that varies its field, in full, else at the sweep", () => {
    const point: [string, unknown][] = [['flows[0].cc', 'x']];
    const e = at('flows[0].cc', 'unknown value "x"', point);
    const withAxis = assignErrors([e], ['sweep', 'sweep.grid."flows[0].cc"', 'flows[0].cc'], ['flows[0].cc']);
    expect(withAxis.byPlace.get('sweep.grid."flows[0].cc"')).toEqual(['sweep point flows[0].cc="x": flows[0].cc: unknown value "x"']);
    expect(withAxis.byPlace.get('flows[0].cc')).toBeUndefined();
    const noAxis = assignErrors([e], ['sweep', 'flows[0].cc'], ['seed']);
    expect(noAxis.byPlace.get('sweep')).toHaveLength(1);
  });

  it('keeps several errors of one place in their order, and counts them over places', () => {
    const f = new FormErrors(assignErrors([at('seed', 'a'), at('name', 'b'), at('seed', 'c')], ['seed', 'name', 'flows']));
    expect(f.at('seed')).toEqual(['a', 'c']);
    expect(f.at('flows')).toEqual([]);
    expect(f.count(['seed', 'name', 'flows'])).toBe(3);
  });
});
