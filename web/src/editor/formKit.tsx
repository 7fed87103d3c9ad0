// What every section of the scenario form shares: reading and writing the scenario at a path,
// the errors assigned to each place (formErrors.ts), the field builders bound to both, and the
// folded group for fields most scenarios leave at their defaults.

import { Fragment, useState, type ReactNode } from 'react';
import { getAt, setAt } from '../scenario/jsonPath';
import { CheckInput, NumberInput, SelectInput, type Option } from './fields';
import type { FormErrors } from './formErrors';
import type { Json, JsonObject } from './model';
import { NumberSlider } from './slider';

/** Edits a fresh parse of the scenario text in place; the editor writes it back. */
export type Edit = (mutate: (root: JsonObject) => void) => void;

export const PROB = 'A probability between 0 and 1.';

export function asArray(v: Json | undefined): Json[] {
  return Array.isArray(v) ? v : [];
}

export interface NumberOptions {
  unit?: string;
  hint?: string;
  /** What an empty input writes: null (the default), or nothing (the field has a default). */
  empty?: 'remove' | 'null';
  integer?: boolean;
  placeholder?: string;
}

export interface Kit {
  scenario: JsonObject;
  errors: FormErrors;
  edit: Edit;
  get: (path: string) => Json | undefined;
  /** Writes the value at a path (undefined removes the field). */
  set: (path: string) => (value: Json | undefined) => void;
  /** A number field at a path. */
  num: (path: string, label: string, o?: NumberOptions) => ReactNode;
  /** A select whose empty choice removes the field (the default applies). */
  choose: (path: string, label: string, options: readonly Option[], hint: string) => ReactNode;
  check: (path: string, label: string, fallback: boolean, hint?: string) => ReactNode;
}

export function makeKit(scenario: JsonObject, errors: FormErrors, edit: Edit): Kit {
  const get = (path: string) => getAt(scenario, path) as Json | undefined;
  const set = (path: string) => (value: Json | undefined) => edit((root) => setAt(root, path, value));
  return {
    scenario,
    errors,
    edit,
    get,
    set,
    num: (path, label, o = {}) => (
      <Fragment key={path}>
        <NumberInput
          label={label}
          unit={o.unit}
          hint={o.hint}
          integer={o.integer}
          placeholder={o.placeholder}
          empty={o.empty ?? 'null'}
          value={get(path)}
          errors={errors.at(path)}
          onChange={set(path)}
        />
        <NumberSlider path={path} label={label} value={get(path)} onChange={set(path)} />
      </Fragment>
    ),
    choose: (path, label, options, hint) => (
      <SelectInput key={path} label={label} hint={hint} value={get(path) ?? ''} options={options} errors={errors.at(path)} onChange={(v) => set(path)(v === '' ? undefined : v)} />
    ),
    check: (path, label, fallback, hint) => <CheckInput key={path} label={label} hint={hint} value={get(path)} fallback={fallback} errors={errors.at(path)} onChange={set(path)} />,
  };
}

/** A disclosure for fields most scenarios leave at their defaults; it opens by itself when one
 * of them has an error. */
export function More({ id, label, errorCount, children }: { id: string; label: string; errorCount: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const expanded = open || errorCount > 0;
  return (
    <div className="more">
      <button type="button" className="link-button" aria-expanded={expanded} aria-controls={`more-${id}`} onClick={() => setOpen((o) => !o)}>
        {expanded ? '▾' : '▸'} {label}
        {errorCount > 0 && ` (${errorCount} error${errorCount > 1 ? 's' : ''})`}
      </button>
      <div id={`more-${id}`} className="grid" hidden={!expanded}>
        {children}
      </div>
    </div>
  );
}
