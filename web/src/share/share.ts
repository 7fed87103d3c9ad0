// A whole scenario in a URL fragment: `#s=<payload>`.
//
// payload = version character ("1") + base64url, without padding, of the raw DEFLATE (fflate) of
// the scenario's UTF-8 JSON text. The fragment never reaches a server, and the text is restored
// byte for byte, so a shared link reruns exactly the same scenario.
//
// Everything in a link is untrusted input. `decodeScenario` checks, in order: the length of the
// payload, its version, its alphabet, the inflated size (bounded while inflating, so a "zip
// bomb" stops at the limit instead of freezing the tab), the UTF-8, the nesting depth (jsonDepth.ts)
// and that the text is a JSON object. It never throws: every failure is a message a user can read. The scenario itself is
// then validated by the core, like any other text; nothing here is executed or put into HTML.

import { deflateSync, Inflate } from 'fflate';
import { tooDeep } from '../scenario/jsonDepth';

/** The fragment parameter that carries a scenario: `#s=...`. */
export const SHARE_PARAM = 's';

/** The format version, the payload's first character. */
export const SHARE_VERSION = '1';

/** Longest payload accepted, in characters (about 48 KB of compressed scenario). */
export const MAX_PAYLOAD_CHARS = 64 * 1024;

/** Largest scenario text accepted after inflating, in bytes. */
export const MAX_SCENARIO_BYTES = 1024 * 1024;

/** Input bytes fed to the inflater at a time: DEFLATE expands at most ~1032x, so one step can
 * never produce much more than the limit before the size is checked. */
const INFLATE_STEP = 512;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export type DecodeResult = { ok: true; text: string } | { ok: false; error: string };

/** The payload of a share link for a scenario's JSON text. */
export function encodeScenario(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return SHARE_VERSION + toBase64Url(deflateSync(bytes, { level: 9 }));
}

/** The scenario text in a share link's payload, or why it cannot be read. Never throws. */
export function decodeScenario(payload: string): DecodeResult {
  const fail = (error: string): DecodeResult => ({ ok: false, error });
  if (typeof payload !== 'string' || payload.length === 0) return fail('the link carries no scenario');
  if (payload.length > MAX_PAYLOAD_CHARS) {
    return fail(`the link is too long (${payload.length.toLocaleString('en')} characters; at most ${MAX_PAYLOAD_CHARS.toLocaleString('en')} are accepted)`);
  }
  const version = payload[0];
  if (version !== SHARE_VERSION) {
    return fail(
      BASE64URL.test(version) && version !== '-' && version !== '_'
        ? `the link uses share format "${version}", which this version of the app does not know (it reads format ${SHARE_VERSION})`
        : 'the link does not start with a share format version; it may have been cut or altered',
    );
  }
  const body = payload.slice(1);
  if (!BASE64URL.test(body)) return fail('the link contains characters that a share link never has; it may have been cut or altered');
  if (body.length === 0) return fail('the link carries no scenario');
  if (body.length % 4 === 1) return fail('the link is incomplete; it may have been cut short');

  let inflated: Uint8Array | null;
  try {
    inflated = inflateBounded(fromBase64Url(body), MAX_SCENARIO_BYTES);
  } catch {
    return fail("the link's data could not be unpacked; it may have been cut or altered");
  }
  if (inflated === null) {
    return fail(`the scenario in the link is larger than ${MAX_SCENARIO_BYTES / 1024 / 1024} MB once unpacked, which no real scenario is`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(inflated);
  } catch {
    return fail('the unpacked scenario is not valid UTF-8 text; the link may have been altered');
  }

  const deep = tooDeep(text);
  if (deep !== null) return fail(`${deep}; the link may have been altered`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('the unpacked scenario is not valid JSON; the link may have been altered');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('the unpacked scenario is not a JSON object');
  }
  return { ok: true, text };
}

/** Inflates raw DEFLATE data; null if the output would exceed `limit` bytes. Throws on corrupt
 * or truncated data. */
function inflateBounded(data: Uint8Array, limit: number): Uint8Array | null {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = false;
  let done = false;
  const inflater = new Inflate((chunk, final) => {
    size += chunk.length;
    if (size > limit) over = true;
    else chunks.push(chunk);
    if (final) done = true;
  });
  for (let at = 0; at < data.length && !over; at += INFLATE_STEP) {
    const end = Math.min(data.length, at + INFLATE_STEP);
    inflater.push(data.subarray(at, end), end === data.length);
  }
  if (over) return null;
  if (!done) throw new Error('incomplete DEFLATE stream');
  const out = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63];
  }
  return out;
}

/** Decodes unpadded base64url already checked against the alphabet (length % 4 != 1). */
function fromBase64Url(s: string): Uint8Array {
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    acc = (acc << 6) | ALPHABET.indexOf(s[i]);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
    acc &= (1 << bits) - 1;
  }
  return out.subarray(0, o);
}
