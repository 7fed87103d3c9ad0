// Scenario files in and out of the editor: the name a saved file gets, and an element-set file
// (TLE text, or CelesTrak OMM JSON) put into a constellation scenario where the format carries
// it (`topology.constellation.tle` / `.omm`, scenarios/README.md). The core validates the
// result like any text, so a bad TLE gets its error with the field's path. A Hypatia `tles.txt`
// (a first line "P S": planes and satellites per plane, then 3-line sets) is a whole
// constellation in a P × S grid: it replaces the Walker shells rather than joining them.

import { isObject, parseJson, stringifyJson, type Json } from '../editor/model';
import { getAt, setAt } from '../scenario/jsonPath';

/** `<name>.json` for a scenario text: its name with anything a file system may refuse
 * replaced, or "scenario.json" when it has none. */
export function scenarioFileName(text: string): string {
  const p = parseJson(text);
  const name = p.ok && isObject(p.value) && typeof p.value.name === 'string' ? p.value.name : '';
  const base = name
    .replace(/[^A-Za-z0-9._ -]+/g, '-')
    .replace(/\s+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return `${base || 'scenario'}.json`;
}

/** What an element-set file is: OMM records are JSON, anything else is taken as TLE text. */
export function elementSetKind(fileText: string): 'omm' | 'tle' {
  const t = fileText.trim();
  return (t.startsWith('[') || t.startsWith('{')) && parseJson(t).ok ? 'omm' : 'tle';
}

/** The grid of a Hypatia `tles.txt`, from its first line "P S"; null for other TLE text. */
export function hypatiaGrid(fileText: string): { planes: number; satsPerPlane: number } | null {
  const first = fileText.trimStart().split(/\r?\n/, 1)[0] ?? '';
  const m = /^(\d+)\s+(\d+)\s*$/.exec(first);
  return m ? { planes: Number(m[1]), satsPerPlane: Number(m[2]) } : null;
}

export type ElementSetEdit =
  | { ok: true; text: string; kind: 'omm' | 'tle'; keptWalker: boolean; hypatia: { planes: number; satsPerPlane: number; replacedWalker: boolean } | null }
  | { ok: false; path: string; message: string };

/**
 * The scenario text with the file's element sets in its constellation: TLE text in `tle`, OMM
 * records in `omm` (replacing what was there, and a `tle_file` the browser cannot read). The
 * Walker shells and GEO satellites stay: a constellation is any combination of them. A Hypatia
 * `tles.txt` is a constellation of its own (its grid is its ISLs): it replaces the Walker shells.
 */
export function withElementSet(scenarioText: string, fileText: string): ElementSetEdit {
  const p = parseJson(scenarioText);
  if (!p.ok || !isObject(p.value)) return { ok: false, path: '', message: 'the scenario text is not a JSON object; fix it before loading satellites into it' };
  const scenario = p.value;
  if (getAt(scenario, 'topology.kind') !== 'constellation')
    return { ok: false, path: 'topology.kind', message: 'satellites from a TLE or OMM file go into a constellation scenario (topology.kind "constellation"); open one first' };
  const kind = elementSetKind(fileText);
  const c = 'topology.constellation';
  const grid = kind === 'tle' ? hypatiaGrid(fileText) : null;
  const hadWalker = getAt(scenario, `${c}.walker`) !== undefined;
  if (grid) setAt(scenario, `${c}.walker`, undefined);
  if (kind === 'omm') {
    const omm = parseJson(fileText.trim());
    setAt(scenario, `${c}.omm`, omm.ok ? (omm.value as Json) : fileText);
  } else {
    // SGP4 reads the lines; line endings from another system would be part of them.
    setAt(scenario, `${c}.tle`, fileText.replace(/\r\n?/g, '\n'));
    setAt(scenario, `${c}.tle_file`, undefined);
  }
  return {
    ok: true,
    text: stringifyJson(scenario),
    kind,
    keptWalker: getAt(scenario, `${c}.walker`) !== undefined,
    hypatia: grid ? { ...grid, replacedWalker: hadWalker } : null,
  };
}
