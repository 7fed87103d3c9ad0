// PLACEHOLDER (being replaced by the real share codec).
export const SHARE_PARAM = 's';
export function encodeScenario(text: string): string {
  return encodeURIComponent(text);
}
export function decodeScenario(payload: string): { ok: true; text: string } | { ok: false; error: string } {
  try {
    return { ok: true, text: decodeURIComponent(payload) };
  } catch (e) {
    return { ok: false, error: String(e) };
  }
}
