/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { decodeScenario, encodeScenario, MAX_PAYLOAD_CHARS, SHARE_VERSION } from './share';

const dir = new URL('../../../scenarios/', import.meta.url);
const presets = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ name: f, text: readFileSync(new URL(f, dir), 'utf8') }));

/** A payload made by hand from raw bytes, to reach the checks after inflating. */
const payloadOf = (bytes: Uint8Array) => SHARE_VERSION + Buffer.from(deflateSync(bytes)).toString('base64url');

function expectFailure(payload: string, message?: RegExp) {
  let result: ReturnType<typeof decodeScenario> | undefined;
  expect(() => (result = decodeScenario(payload))).not.toThrow();
  expect(result?.ok).toBe(false);
  if (result && !result.ok) {
    expect(result.error.length).toBeGreaterThan(10);
    if (message) expect(result.error).toMatch(message);
  }
}

describe('share links', () => {
  it('finds the presets', () => {
    expect(presets.length).toBeGreaterThanOrEqual(5);
  });

  it.each(presets)('round-trips $name exactly', ({ text }) => {
    const payload = encodeScenario(text);
    expect(payload[0]).toBe(SHARE_VERSION);
    expect(payload.slice(1)).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(payload.length).toBeLessThan(text.length);
    expect(decodeScenario(payload)).toEqual({ ok: true, text });
  });

  it('survives URLSearchParams, as the app reads it', () => {
    const text = presets[0].text;
    const params = new URLSearchParams(`s=${encodeScenario(text)}&x=1`);
    expect(decodeScenario(params.get('s') ?? '')).toEqual({ ok: true, text });
  });

  it('round-trips unicode, escapes and odd whitespace', () => {
    for (const text of [
      '{"name": "Ünïcødé ✓ — 衛星 🛰️", "description": "tab\\t and \\u0000"}',
      '{"name":"\\ud83d\\udef0 escaped, and a lone \\udc00"}',
      '  {\r\n"a": [1, 2.5e-7, null]\n}  ',
      '{}',
    ]) {
      expect(decodeScenario(encodeScenario(text))).toEqual({ ok: true, text });
    }
  });

  it('matches base64url without padding for every length mod 3', () => {
    for (const text of ['{}', '{ }', '{  }', '{"a":1}', '{"ab":12}']) {
      const payload = encodeScenario(text);
      const expected = Buffer.from(deflateSync(new TextEncoder().encode(text), { level: 9 })).toString('base64url');
      expect(payload).toBe(SHARE_VERSION + expected);
      expect(decodeScenario(payload)).toEqual({ ok: true, text });
    }
  });

  it('rejects an empty link or one without a scenario', () => {
    expectFailure('', /no scenario/);
    expectFailure(SHARE_VERSION, /no scenario/);
  });

  it('rejects a short link that nests thousands of objects, before parsing it', () => {
    const payload = encodeScenario('{"a":'.repeat(5000) + '1' + '}'.repeat(5000));
    expect(payload.length).toBeLessThan(200);
    expectFailure(payload, /5,000 levels deep/);
  });

  it('rejects an unknown version', () => {
    const good = encodeScenario(presets[0].text);
    expectFailure('2' + good.slice(1), /format "2"/);
    expectFailure('0' + good.slice(1), /format "0"/);
    expectFailure(good.slice(1), /format|version/);
    expectFailure('!' + good.slice(1), /version/);
  });

  it('rejects characters outside base64url', () => {
    const good = encodeScenario(presets[0].text);
    expectFailure('1not-a-valid-payload!!', /characters/);
    expectFailure(good.slice(0, 10) + '+' + good.slice(11), /characters/);
    expectFailure(good.slice(0, 10) + '/' + good.slice(11), /characters/);
    expectFailure(good + '=', /characters/);
    expectFailure(good.slice(0, 10) + ' ' + good.slice(10), /characters/);
    expectFailure(good.slice(0, 10) + '<script>' + good.slice(10), /characters/);
  });

  it('rejects truncated payloads', () => {
    const good = encodeScenario(presets[0].text);
    for (const cut of [2, 5, 6, 7, 20, Math.floor(good.length / 2), good.length - 8, good.length - 3, good.length - 1]) {
      expectFailure(good.slice(0, cut));
    }
  });

  it('rejects every single flipped character of a payload', () => {
    const text = presets.find((p) => p.name === 'default.json')?.text ?? presets[0].text;
    const good = encodeScenario(text);
    let rejected = 0;
    for (let i = 1; i < good.length; i++) {
      const flipped = good[i] === 'A' ? 'B' : 'A';
      const result = decodeScenario(good.slice(0, i) + flipped + good.slice(i + 1));
      // A raw DEFLATE stream has no checksum, so a flip may still give a JSON object (the core
      // then validates it); it must never throw or give back the original text.
      if (result.ok) expect(result.text).not.toBe(text);
      else rejected++;
    }
    expect(rejected).toBeGreaterThan(good.length / 2);
  });

  it('rejects random garbage without throwing', () => {
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let n = 0; n < 300; n++) {
      let s = SHARE_VERSION;
      const len = 2 + Math.floor(rand() * 200);
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(rand() * 64)];
      expect(() => decodeScenario(s)).not.toThrow();
      const r = decodeScenario(s);
      if (r.ok) expect(typeof JSON.parse(r.text)).toBe('object');
    }
  });

  it('rejects a payload longer than the limit before decoding it', () => {
    expectFailure(SHARE_VERSION + 'A'.repeat(MAX_PAYLOAD_CHARS), /too long/);
  });

  it('stops inflating a zip bomb at the size limit, quickly', () => {
    // 64 MB of spaces compresses to ~64 KB; 4 MB of zeros to a few KB.
    const bomb = payloadOf(new Uint8Array(4 * 1024 * 1024).fill(0x20));
    expect(bomb.length).toBeLessThan(MAX_PAYLOAD_CHARS);
    const start = performance.now();
    expectFailure(bomb, /larger than 1 MB/);
    expect(performance.now() - start).toBeLessThan(1000);

    const near = '{"a":"' + 'x'.repeat(1024 * 1024) + '"}';
    expectFailure(encodeScenario(near), /larger than/);
    const fits = '{"a":"' + 'x'.repeat(1024 * 1024 - 20) + '"}';
    expect(decodeScenario(encodeScenario(fits))).toEqual({ ok: true, text: fits });
  });

  it('rejects invalid UTF-8', () => {
    expectFailure(payloadOf(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])), /UTF-8/);
    expectFailure(payloadOf(new Uint8Array([0x7b, 0x22, 0xc3, 0x22, 0x7d])), /UTF-8/);
  });

  it('rejects text that is not a JSON object', () => {
    const enc = (s: string) => payloadOf(new TextEncoder().encode(s));
    expectFailure(enc('{"a": '), /not valid JSON/);
    expectFailure(enc('hello'), /not valid JSON/);
    expectFailure(enc('[1, 2]'), /not a JSON object/);
    expectFailure(enc('"text"'), /not a JSON object/);
    expectFailure(enc('null'), /not a JSON object/);
    expectFailure(enc('42'), /not a JSON object/);
  });

  it('rejects data that is not DEFLATE', () => {
    expectFailure(SHARE_VERSION + Buffer.from('{"name":"plain"}').toString('base64url'), /unpacked|JSON|UTF-8/);
  });
});
