// Integers too large for a double (a 64-bit seed: 18446744073709551615) kept as their exact
// digits while the editor parses, edits and rewrites a scenario. Browsers with `JSON.rawJSON`
// (Chromium 114+, Firefox 135+) get the native raw value, which JSON.stringify writes back
// unchanged; elsewhere a frozen `{ rawJSON }` object of our own stands in, found before
// JSON.parse sees the text (it would round the number), and every writer of the editor
// (model.ts `stringifyJson`) writes its digits. Either way it is a leaf, never a container.

/** An exact integer kept as its digits. */
export interface RawNumber {
  readonly rawJSON: string;
}

type JsonWithRaw = typeof JSON & {
  rawJSON?: (text: string) => RawNumber;
  isRawJSON?: (v: unknown) => boolean;
};
const J = JSON as JsonWithRaw;

/** The stand-ins made where the browser has no JSON.rawJSON. */
const ours = new WeakSet<object>();

/** A raw number for integer text (the browser's own where it has one). */
export function rawNumber(digits: string): RawNumber {
  if (J.rawJSON) return J.rawJSON(digits);
  const r = Object.freeze({ rawJSON: digits });
  ours.add(r);
  return r;
}

export function isRawNumber(v: unknown): v is RawNumber {
  if (typeof v !== 'object' || v === null) return false;
  return ours.has(v) || (J.isRawJSON?.(v) ?? false);
}

/** Whether integer text would change through a double. */
export function isUnsafeInteger(text: string): boolean {
  return /^-?\d+$/.test(text) && !Number.isSafeInteger(Number(text));
}

/**
 * JSON.parse that keeps every integer beyond 2^53 as a RawNumber, in any browser. With the
 * reviver's `source` (where JSON.rawJSON exists) the number's own text is used; without it,
 * such integers are found outside strings and parsed as marked strings that the reviver turns
 * back. Throws as JSON.parse does (the caller parses plainly first for the error's position).
 */
export function parseKeepingBigIntegers(text: string): unknown {
  if (J.rawJSON) {
    const reviver = (_key: string, value: unknown, ctx?: { source?: string }) =>
      typeof value === 'number' && ctx?.source !== undefined && isUnsafeInteger(ctx.source.trim()) ? rawNumber(ctx.source.trim()) : value;
    return JSON.parse(text, reviver as (k: string, v: unknown) => unknown);
  }
  const marked = markBigIntegers(text);
  if (marked === null) return JSON.parse(text);
  return JSON.parse(marked.text, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(marked.mark) ? rawNumber(value.slice(marked.mark.length)) : value,
  );
}

/** The text with each unsafe integer outside strings written as the string `"<mark><digits>"`,
 * or null when it has none. The mark is a prefix no string of the text starts with. */
function markBigIntegers(text: string): { text: string; mark: string } | null {
  let mark = '\u0001bigint:';
  while (text.includes(mark.slice(1))) mark += '#';
  let out = '';
  let last = 0;
  let found = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      // Skip the string, escapes included.
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 400));
      const tok = m ? m[0] : c;
      if (m && !m[1] && !m[2] && isUnsafeInteger(tok)) {
        // The mark's control character written as an escape: raw, it is not valid in a string.
        out += `${text.slice(last, i)}"\\u0001${mark.slice(1)}${tok}"`;
        last = i + tok.length;
        found = true;
      }
      i += tok.length;
      continue;
    }
    i++;
  }
  return found ? { text: out + text.slice(last), mark } : null;
}
