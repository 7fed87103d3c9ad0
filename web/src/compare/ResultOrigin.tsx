// The line above a result that says which scenario produced it, and, once the editor holds
// something else, that the result is out of date and what changed since: a result on screen is
// never taken for the scenario beside it.

import type { Scenario } from '../scenario/types.gen';
import { describeChanges, type ScenarioChange } from '../scenario/diff';
import './compare.css';

/** What the editor holds against the result's scenario: the changes, or null when the editor's
 * text cannot be read as a scenario. */
export type EditorChanges = ScenarioChange[] | null;

/** Whether a result no longer describes the editor's scenario. */
export function isStale(changes: EditorChanges): boolean {
  return changes === null || changes.length > 0;
}

export function ResultOrigin({ scenario, seed, what, changes }: { scenario: Scenario | null; seed: string | number | undefined; what: 'run' | 'sweep'; changes: EditorChanges }) {
  const stale = isStale(changes);
  const name = scenario?.name || 'an unnamed scenario';
  return (
    <div className={stale ? 'result-origin stale' : 'result-origin'} data-testid="result-origin" data-stale={stale} role={stale ? 'status' : undefined}>
      <span>
        {what === 'sweep' ? 'Sweep' : 'Run'} of “{name}”{seed !== undefined ? `, seed ${seed}` : ''}.
      </span>{' '}
      {stale && (
        <strong data-testid="result-stale">
          {changes === null
            ? 'Out of date: the editor’s scenario cannot be read. '
            : `Out of date: the editor’s scenario has changed since (${describeChanges(changes)}). `}
          {what === 'sweep' ? 'Run the sweep' : 'Run'} to update these results.
        </strong>
      )}
    </div>
  );
}
