// The form's sweep: the grid's axes (a path and its values each, in the sweep's order), the runs
// per point, and the buttons that add and remove axes or the sweep. A path can be any field of
// the scenario; the datalist suggests the common ones for the scenario's links and flows.

import { getAt } from '../scenario/jsonPath';
import { FieldErrors, ListInput, TextInput } from './fields';
import { axisPlace, sweepAxes } from './formPlaces';
import { asArray, type Kit } from './formKit';
import { formatValue, isObject, type Json, type JsonObject } from './model';

export function SweepFields({ kit }: { kit: Kit }) {
  const { get, num, errors, edit } = kit;
  const sweep = get('sweep');
  const grid = isObject(sweep) && isObject(sweep.grid) ? sweep.grid : null;
  const axes = sweepAxes(kit.scenario);
  const suggestions = pathSuggestions(
    asArray(get('topology.links')).length,
    asArray(get('flows')).map((f) => (isObject(f) ? f.transport : undefined)),
  );
  if (!isObject(sweep)) {
    return (
      <p className="note">
        No sweep: one run.{' '}
        <button type="button" className="small" onClick={() => edit((root) => void (root.sweep = { grid: { 'flows[0].cc': ['reno', 'cubic'] }, runs: 1 }))}>
          Add a sweep
        </button>
      </p>
    );
  }
  const axisNodes = axes.map((key, k) => {
    const path = axisPlace(key);
    return (
      <div className="row axis" key={k} role="group" aria-label={`Axis ${k + 1}`}>
        <TextInput
          label={`Axis ${k + 1} path`}
          hint="Path of any scenario field: dots for fields, [i] for list elements."
          value={key}
          parse={(t) => t}
          format={formatValue}
          list="orbitcp-sweep-paths"
          check={(t) => (t !== key && axes.includes(t) ? 'another axis already varies this path' : null)}
          errors={[]}
          onChange={(v) => edit((root) => renameAxis(root, key, typeof v === 'string' ? v : ''))}
        />
        <ListInput
          label="values"
          hint='Comma-separated: numbers, names such as reno, or JSON ("quoted", [lists]).'
          value={grid?.[key]}
          errors={errors.at(path)}
          onChange={(v) => edit((root) => setAxis(root, key, v))}
        />
        <button type="button" className="icon" aria-label={`Remove axis ${k + 1}`} onClick={() => edit((root) => removeAxis(root, key))}>
          ×
        </button>
      </div>
    );
  });
  const runs = num('sweep.runs', 'Runs per point', { integer: true, empty: 'remove', placeholder: '1', hint: 'Runs per grid point (common random numbers across points), 1 to 10 000.' });
  return (
    <>
      <FieldErrors errors={errors.at('sweep')} />
      <div className="rows">{axisNodes}</div>
      <datalist id="orbitcp-sweep-paths">
        {suggestions.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <div className="grid">{runs}</div>
      <div className="buttons">
        <button type="button" className="small" onClick={() => edit((root) => addAxis(root, suggestions))}>
          Add axis
        </button>
        <button type="button" className="small" onClick={() => edit((root) => void delete root.sweep)}>
          Remove the sweep
        </button>
      </div>
    </>
  );
}

function pathSuggestions(links: number, transports: unknown[]): string[] {
  const out = ['seed', 'duration_s'];
  for (let i = 0; i < links; i++) {
    for (const f of ['rate_mbps', 'delay_ms', 'buffer_pkts', 'jitter_ms', 'loss.p']) out.push(`topology.links[${i}].${f}`);
  }
  transports.forEach((t, i) => {
    const fields =
      t === 'ctcp'
        ? ['variant', 'bytes', 'block_pkts', 'max_blocks', 'loss_scaling', 'coding']
        : t === 'intcp'
          ? ['cache', 'cache_bytes', 'bytes', 'start_s', 'target_buffer_pkts', 'decrease_factor', 'hole_threshold_pkts', 'to_node']
          : ['cc', 'bytes', 'start_s', 'initial_cwnd_pkts', 'mss_bytes'];
    for (const f of fields) out.push(`flows[${i}].${f}`);
  });
  return out;
}

function gridOf(root: JsonObject): JsonObject {
  if (!isObject(root.sweep)) root.sweep = { grid: {} };
  const sweep = root.sweep as JsonObject;
  if (!isObject(sweep.grid)) sweep.grid = {};
  return sweep.grid as JsonObject;
}

/** Renames an axis in place of the old one: the grid's order is the sweep's order. */
function renameAxis(root: JsonObject, from: string, to: string) {
  const grid = gridOf(root);
  if (from === to || to in grid) return;
  const entries = Object.entries(grid);
  for (const k of Object.keys(grid)) delete grid[k];
  for (const [k, v] of entries) grid[k === from ? to : k] = v;
}

function setAxis(root: JsonObject, key: string, values: Json[]) {
  gridOf(root)[key] = values;
}

function removeAxis(root: JsonObject, key: string) {
  delete gridOf(root)[key];
}

function addAxis(root: JsonObject, suggestions: string[]) {
  const grid = gridOf(root);
  const key = ['flows[0].cc', ...suggestions].find((s) => !(s in grid));
  if (key === undefined) return;
  const current = getAt(root, key) as Json | undefined;
  grid[key] = key.endsWith('.cc') ? ['reno', 'cubic'] : current !== undefined && current !== null ? [current] : key === 'seed' ? [1, 2] : [];
}
