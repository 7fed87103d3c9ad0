import { describe, expect, it } from 'vitest';
import { decodeScenario } from '../share/share';
import { embedCode, embedView } from './embed';

describe('the embedded page', () => {
  it('takes its view from the fragment, then the query, then a default that fits the scenario', () => {
    expect(embedView('?embed=1&view=cwnd', '#s=1x&view=globe', false)).toEqual({ ok: true, view: 'globe' });
    expect(embedView('?embed=1&view=cwnd', '#s=1x', false)).toEqual({ ok: true, view: 'cwnd' });
    expect(embedView('?embed=1', '', false)).toEqual({ ok: true, view: 'goodput' });
    expect(embedView('?embed=1', '', true)).toEqual({ ok: true, view: 'sweep' });
  });

  it('names an unknown view and lists the ones there are', () => {
    const r = embedView('?embed=1', '#view=<script>', false);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatch(/^view: "<script>" is not a view; use one of summary, cwnd, /);
      expect(r.error).toContain('hops');
      expect(r.error).toContain('globe');
    }
  });
});

describe('the embed code', () => {
  const text = '{"name": "A \\"quoted\\" <name> & more"}';
  const code = embedCode({ pageUrl: 'https://example.org/course/orbitcp/?debug=1#preset=default&lesson=1', text, scenarioName: 'A "quoted" <name> & more', coreVersion: '0.1.0', view: 'cwnd' });

  it('is one iframe whose src is the page with embed=1 and the scenario, run and view in its fragment', () => {
    const doc = code.match(/^<iframe src="([^"]*)" width="(\d+)" height="(\d+)" title="([^"]*)"[^>]*><\/iframe>$/);
    expect(doc).not.toBeNull();
    const src = new URL((doc as RegExpMatchArray)[1].replace(/&amp;/g, '&'));
    expect(src.origin + src.pathname).toBe('https://example.org/course/orbitcp/');
    expect(src.search).toBe('?embed=1');
    const p = new URLSearchParams(src.hash.slice(1));
    expect(decodeScenario(p.get('s') ?? '')).toEqual({ ok: true, text });
    expect(p.get('run')).toBe('1');
    expect(p.get('v')).toBe('0.1.0');
    expect(p.get('view')).toBe('cwnd');
    expect(p.has('lesson')).toBe(false);
    expect(Number((doc as RegExpMatchArray)[2])).toBeGreaterThan(300);
  });

  it('escapes the title, so a scenario name cannot break out of the attribute', () => {
    expect(code).toContain('title="orbitcp: A &quot;quoted&quot; &lt;name&gt; &amp; more, the congestion window chart"');
    expect(code.match(/</g)).toHaveLength(2);
  });

  it("proposes a 16:9 slide's frame unless asked for another size", () => {
    const size = (s?: { width: number; height: number }) =>
      embedCode({ pageUrl: 'https://x.org/', text, scenarioName: 'x', coreVersion: '0.1.0', view: 'globe', size: s }).match(/width="(\d+)" height="(\d+)"/)?.slice(1).map(Number);
    expect(size()).toEqual([960, 540]);
    expect(size({ width: 1280, height: 720 })).toEqual([1280, 720]);
  });
});
