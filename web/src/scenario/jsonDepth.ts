// How deeply a JSON text nests its objects and lists, counted without parsing it. A scenario
// nests about eight levels; a crafted text of thousands (a 119-character share link can hold
// 5000) makes recursive code, the browser's or ours, overflow its stack and blank the page.
// Every reader of untrusted scenario text checks the depth first and refuses with a message.

/** Deepest nesting accepted: far beyond any scenario, and below the core's own limit (128). */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of `[` and `{` in `text` (outside strings), and the offset where it first
 * passes `limit`, if it does. Linear, iterative, never throws, whatever the text. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): { depth: number; overAt?: number } {
  let depth = 0;
  let deepest = 0;
  let overAt: number | undefined;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (depth > limit && overAt === undefined) overAt = i;
    } else if (c === 0x5d || c === 0x7d) {
      depth = Math.max(0, depth - 1);
    }
  }
  return overAt === undefined ? { depth: deepest } : { depth: deepest, overAt };
}

/** Why `text` nests too deeply to be read, or null when it does not. */
export function tooDeep(text: string): string | null {
  const { depth, overAt } = jsonDepth(text);
  if (overAt === undefined) return null;
  return `the scenario nests objects and lists ${depth.toLocaleString('en')} levels deep; a scenario never needs more than ${MAX_JSON_DEPTH}`;
}
