// The URL fragment holds several independent things as `key=value` parameters: a shared
// scenario (`s=`, share.ts), a preset (`preset=`), a lesson step (`lesson=2&step=3&revealed=1,2`,
// lessons/state.ts). Each writer changes only its own parameters and keeps the others, so that
// a lesson link can also carry a scenario and the other way round.

/**
 * The fragment `hash` (with or without its `#`) with the given parameters set, in place where
 * they were or appended in the order given, and those given as null removed. The result has no
 * `#`. The commas of a list (`revealed=1,2`) stay commas: they are safe in a fragment, and a
 * teacher reads and types these links.
 */
export function withParams(hash: string, params: Readonly<Record<string, string | null>>): string {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  for (const [key, value] of Object.entries(params)) {
    if (value === null) p.delete(key);
    else p.set(key, value);
  }
  return p.toString().replace(/%2C/g, ',');
}
