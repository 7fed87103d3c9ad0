import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MAX_DEPTH, MAX_TEXT_CHARS, parseInline, parseText, plainText } from './text';
import { SafeText } from './SafeText';

const html = (text: string) => renderToStaticMarkup(createElement(SafeText, { text }));

describe('parseText', () => {
  it('splits paragraphs on blank lines and joins the lines of one', () => {
    expect(parseText('one\ntwo\n\n  \nthree')).toEqual([
      { kind: 'paragraph', children: [{ kind: 'text', text: 'one two' }] },
      { kind: 'paragraph', children: [{ kind: 'text', text: 'three' }] },
    ]);
  });

  it('reads a bullet list, with a continuation line joined to its item', () => {
    expect(parseText('- first\n- second\n  goes on\n* third')).toEqual([
      {
        kind: 'list',
        items: [[{ kind: 'text', text: 'first' }], [{ kind: 'text', text: 'second goes on' }], [{ kind: 'text', text: 'third' }]],
      },
    ]);
  });

  it('parses emphasis, strong, code, superscript and subscript, nested', () => {
    expect(parseInline('a *b* **c *d*** `e*f` x^{2} t_{γ}')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'em', children: [{ kind: 'text', text: 'b' }] },
      { kind: 'text', text: ' ' },
      { kind: 'strong', children: [{ kind: 'text', text: 'c ' }, { kind: 'em', children: [{ kind: 'text', text: 'd' }] }] },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'e*f' },
      { kind: 'text', text: ' x' },
      { kind: 'sup', children: [{ kind: 'text', text: '2' }] },
      { kind: 'text', text: ' t' },
      { kind: 'sub', children: [{ kind: 'text', text: 'γ' }] },
    ]);
  });

  it('leaves underscores and carets without a brace alone (field names, formulas)', () => {
    expect(parseInline('rwnd_pkts = 2^16 and a_b')).toEqual([{ kind: 'text', text: 'rwnd_pkts = 2^16 and a_b' }]);
  });

  it('keeps unbalanced marks as the text typed', () => {
    for (const s of ['*open', 'close*', '**strong', 'a ** b', '`code', 'x^{2', 'y}', '***', '*****', 'a} b^{']) {
      expect(plainText(parseText(s))).toBe(s);
    }
  });

  it('closes the nearest open mark of its kind and turns marks opened inside it into text', () => {
    // The strong opened inside the emphasis is still open when the emphasis closes.
    expect(parseInline('*a **b* c')).toEqual([{ kind: 'em', children: [{ kind: 'text', text: 'a **b' }] }, { kind: 'text', text: ' c' }]);
  });

  it('reads a run of three stars as strong and emphasis together', () => {
    expect(parseInline('***x***')).toEqual([{ kind: 'strong', children: [{ kind: 'em', children: [{ kind: 'text', text: 'x' }] }] }]);
  });

  it('writes escaped marks literally', () => {
    expect(parseInline('\\*not em\\* and \\`tick\\`')).toEqual([{ kind: 'text', text: '*not em* and `tick`' }]);
  });

  it('does not make empty marks', () => {
    expect(parseInline('****')).toEqual([{ kind: 'text', text: '****' }]);
    expect(parseInline('^{}')).toEqual([{ kind: 'text', text: '^{}' }]);
  });

  it('stops nesting at MAX_DEPTH and keeps deeper openers as text', () => {
    const deep = '^{'.repeat(MAX_DEPTH + 3) + 'x' + '}'.repeat(MAX_DEPTH + 3);
    let depth = 0;
    let node = parseInline(deep);
    while (node.length && node[0].kind === 'sup') {
      depth++;
      node = node[0].children;
    }
    expect(depth).toBe(MAX_DEPTH);
    // The innermost superscript holds the extra openers as text; their braces stay text too.
    expect(node).toEqual([{ kind: 'text', text: '^{^{^{x' }]);
    expect(plainText(parseText(deep))).toBe('^{^{^{x}}}');
  });

  it('parses long hostile input in linear time and cuts it at MAX_TEXT_CHARS', () => {
    const evil = '*'.repeat(50_000) + '`'.repeat(50_000) + '^{'.repeat(50_000);
    const t0 = performance.now();
    const blocks = parseText(evil);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(plainText(blocks).length).toBe(MAX_TEXT_CHARS + 1);
  });

  it('gives nothing for what is not a string', () => {
    expect(parseText(undefined as unknown as string)).toEqual([]);
  });
});

describe('SafeText', () => {
  it('renders the marks as elements', () => {
    expect(html('A *b* **c** `d` e^{2} f_{0}\n\n- g\n- h')).toBe(
      '<p>A <em>b</em> <strong>c</strong> <code>d</code> e<sup>2</sup> f<sub>0</sub></p><ul><li>g</li><li>h</li></ul>',
    );
  });

  it('renders markup in a lesson as text, never as HTML', () => {
    const out = html('<script>alert(1)</script> <img src=x onerror="alert(2)"> **<b>x</b>**');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<b>');
    // Preact's serializer escapes `<`, `&` and `"` in text; `>` needs no escaping there.
    expect(out).toContain('&lt;script>alert(1)&lt;/script>');
    expect(out).toContain('<strong>&lt;b>x&lt;/b></strong>');
  });

  it('has no links: a markdown or javascript: link stays text', () => {
    const out = html('[click](javascript:alert(1)) <a href="javascript:alert(2)">x</a> `javascript:void(0)`');
    // The only elements are the paragraph and the code span; the rest is escaped text.
    expect([...out.matchAll(/<\/?([a-z]+)/g)].map((m) => m[1])).toEqual(['p', 'code', 'code', 'p']);
    expect(out).toContain('[click](javascript:alert(1))');
  });

  it('escapes quotes, ampersands and tag openers in every kind of node', () => {
    // `'` and `>` are harmless in text, and Preact's serializer leaves them as they are.
    expect(html('`"&\'` *"<>"*')).toBe('<p><code>&quot;&amp;\'</code> <em>&quot;&lt;>&quot;</em></p>');
  });
});
