// The core's errors, assigned to the places of the form up front: each error goes to the most
// specific place on screen that holds its path (a field, else the group or section around it),
// and what no place holds goes to a general list at the top. The assignment depends on the set
// of places only, never on the order the form renders them in. The places of a scenario are
// listed by formPlaces.ts.

import type { FieldError } from '../sim/protocol';
import { errorPlace, errorText, pathWithin } from './model';

export interface AssignedErrors {
  /** Each place's errors, worded for beside it; a place without errors is absent. */
  byPlace: Map<string, string[]>;
  /** Errors that no place holds, each with its path. */
  general: string[];
}

/**
 * Hands each error to the longest place that holds its path (`topology.links[1].loss.p` before
 * `topology.links[1].loss` before `topology.links[1]`). Beside its own field an error is its
 * message alone; beside a group that holds it, the rest of its path comes first; a sweep point's
 * error keeps its whole wording (the point and the path). `axes` are the sweep's grid paths, to
 * place sweep point errors (see errorPlace).
 */
export function assignErrors(errors: readonly FieldError[], places: Iterable<string>, axes: readonly string[] = []): AssignedErrors {
  const all = [...new Set(places)];
  const byPlace = new Map<string, string[]>();
  const general: string[] = [];
  for (const error of errors) {
    const at = errorPlace(error, axes);
    let best: string | undefined;
    for (const p of all) if (pathWithin(at, p) && (best === undefined || p.length > best.length)) best = p;
    if (best === undefined) {
      general.push(errorText(error));
      continue;
    }
    const text = error.sweep_point ? errorText(error) : besideField(error, best);
    const list = byPlace.get(best);
    if (list) list.push(text);
    else byPlace.set(best, [text]);
  }
  return { byPlace, general };
}

function besideField(e: FieldError, field: string): string {
  const inner = e.path.slice(field.length).replace(/^[.]/, '');
  return inner === '' ? e.message : `${inner}: ${e.message}`;
}

const NONE: readonly string[] = [];

/** The assigned errors as the form reads them. */
export class FormErrors {
  constructor(private readonly assigned: AssignedErrors) {}

  /** The errors shown at a place. */
  at(place: string): readonly string[] {
    return this.assigned.byPlace.get(place) ?? NONE;
  }

  /** How many errors the places hold together (a folded group says it has errors). */
  count(places: Iterable<string>): number {
    let n = 0;
    for (const p of places) n += this.at(p).length;
    return n;
  }

  get general(): readonly string[] {
    return this.assigned.general;
  }
}
