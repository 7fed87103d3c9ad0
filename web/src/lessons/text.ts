// The safe text of lessons (docs/lessons.md §4): plain text with a small set of marks, parsed to
// a typed tree that SafeText.tsx renders as React elements. Nothing is ever HTML: a `<script>`
// is the text "<script>", there are no links, and a mark without its partner stays as typed.
//
//   blank line             new paragraph
//   lines starting "- "    a bullet list (a line that does not continue the item)
//   *emphasis*  **strong**  `code`  x^{2}  p_{loss}     \* writes a literal *
//
// Inline marks are matched with a stack (a closing mark closes the nearest open one of its kind;
// marks opened after it and still open become plain text), so parsing is linear in the input
// and cannot be made to backtrack.

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'em' | 'strong' | 'sup' | 'sub'; children: Inline[] };

export type Block = { kind: 'paragraph'; children: Inline[] } | { kind: 'list'; items: Inline[][] };

/** Longest text parsed; beyond it the rest is dropped with a visible ellipsis. */
export const MAX_TEXT_CHARS = 20_000;
/** Deepest nesting of marks; deeper openers are plain text. */
export const MAX_DEPTH = 6;

const BULLET = /^\s*[-*]\s+/;

export function parseText(input: string): Block[] {
  let src = typeof input === 'string' ? input : '';
  if (src.length > MAX_TEXT_CHARS) src = `${src.slice(0, MAX_TEXT_CHARS)}…`;
  const blocks: Block[] = [];
  for (const chunk of src.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/)) {
    const lines = chunk.split('\n').filter((l) => l.trim().length > 0);
    if (lines.length === 0) continue;
    if (BULLET.test(lines[0])) {
      const items: string[] = [];
      for (const line of lines) {
        if (BULLET.test(line)) items.push(line.replace(BULLET, ''));
        else items[items.length - 1] += ` ${line.trim()}`;
      }
      blocks.push({ kind: 'list', items: items.map((t) => parseInline(t.trim())) });
    } else {
      blocks.push({ kind: 'paragraph', children: parseInline(lines.map((l) => l.trim()).join(' ')) });
    }
  }
  return blocks;
}

type Mark = 'em' | 'strong' | 'sup' | 'sub';
interface Frame {
  mark: Mark | null;
  opener: string;
  children: Inline[];
}

const ESCAPABLE = '\\*`^_{}-';

export function parseInline(src: string): Inline[] {
  const stack: Frame[] = [{ mark: null, opener: '', children: [] }];
  const top = () => stack[stack.length - 1];
  const text = (t: string) => {
    const c = top().children;
    const last = c[c.length - 1];
    if (last && last.kind === 'text') last.text += t;
    else c.push({ kind: 'text', text: t });
  };
  const open = (mark: Mark, opener: string) => {
    if (stack.length > MAX_DEPTH) text(opener);
    else stack.push({ mark, opener, children: [] });
  };
  /** Closes the nearest open `mark`; false if none is open. */
  const close = (mark: Mark, closer: string): boolean => {
    let j = stack.length - 1;
    while (j > 0 && stack[j].mark !== mark) j--;
    if (j === 0) return false;
    while (stack.length - 1 > j) unwind();
    const f = stack.pop() as Frame;
    if (f.children.length === 0) {
      text(f.opener + closer);
    } else {
      top().children.push({ kind: mark, children: f.children });
    }
    return true;
  };
  /** Turns the innermost open mark back into plain text. */
  const unwind = () => {
    const f = stack.pop() as Frame;
    text(f.opener);
    for (const c of f.children) {
      if (c.kind === 'text') text(c.text);
      else top().children.push(c);
    }
  };

  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (ch === '\\' && i + 1 < src.length && ESCAPABLE.includes(src[i + 1])) {
      text(src[i + 1]);
      i += 2;
    } else if (ch === '`') {
      const end = src.indexOf('`', i + 1);
      if (end > i + 1) {
        top().children.push({ kind: 'code', text: src.slice(i + 1, end) });
        i = end + 1;
      } else {
        text('`');
        i += 1;
      }
    } else if (ch === '*') {
      let run = 1;
      while (src[i + run] === '*') run++;
      i += run;
      if (run <= 2) {
        const mark: Mark = run === 2 ? 'strong' : 'em';
        const token = run === 2 ? '**' : '*';
        if (!close(mark, token)) open(mark, token);
      } else {
        // A longer run (`***`) closes what is innermost first, then opens strong before em.
        while (run > 0) {
          const inner = top().mark;
          if (inner === 'em') {
            close('em', '*');
            run -= 1;
          } else if (inner === 'strong' && run >= 2) {
            close('strong', '**');
            run -= 2;
          } else if (run >= 2) {
            open('strong', '**');
            run -= 2;
          } else {
            if (!close('em', '*')) open('em', '*');
            run -= 1;
          }
        }
      }
    } else if ((ch === '^' || ch === '_') && src[i + 1] === '{') {
      open(ch === '^' ? 'sup' : 'sub', `${ch}{`);
      i += 2;
    } else if (ch === '}') {
      // A brace closes the nearest open superscript or subscript, whichever is innermost.
      let j = stack.length - 1;
      while (j > 0 && stack[j].mark !== 'sup' && stack[j].mark !== 'sub') j--;
      if (j === 0 || !close(stack[j].mark as Mark, '}')) text('}');
      i += 1;
    } else {
      let k = i + 1;
      while (k < src.length && !'\\`*^_}'.includes(src[k])) k++;
      text(src.slice(i, k));
      i = k;
    }
  }
  while (stack.length > 1) unwind();
  return stack[0].children;
}

/** The text alone, marks dropped: for titles, labels and screen-reader summaries. */
export function plainText(blocks: Block[]): string {
  const inline = (xs: Inline[]): string => xs.map((x) => (x.kind === 'text' || x.kind === 'code' ? x.text : inline(x.children))).join('');
  return blocks.map((b) => (b.kind === 'paragraph' ? inline(b.children) : b.items.map(inline).join('; '))).join('\n\n');
}
