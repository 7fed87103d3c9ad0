import { describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH, tooDeep } from './jsonDepth';

describe('jsonDepth', () => {
  it('counts the nesting of objects and lists but not brackets inside strings', () => {
    expect(jsonDepth('{"a": [1, {"b": "[[[{{{"}]}').depth).toBe(3);
    expect(jsonDepth('"\\"[" ').depth).toBe(0);
  });

  it('finds where 5000 nested objects pass the limit, without recursion', () => {
    const text = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const { depth, overAt } = jsonDepth(text);
    expect(depth).toBe(5000);
    expect(overAt).toBe(MAX_JSON_DEPTH * 5);
    expect(tooDeep(text)).toContain('5,000 levels deep');
  });

  it('accepts a real scenario', () => {
    expect(tooDeep('{"flows": [{"transport": "tcp", "loss": {"model": "ge"}}]}')).toBeNull();
  });
});
