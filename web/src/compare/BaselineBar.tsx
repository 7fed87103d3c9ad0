// "Pin as baseline" on a finished run, and while one is pinned its name and "Clear baseline".

import type { RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import type { Baseline } from './useBaseline';
import './compare.css';

const PIN_TITLE = 'Keep this run to compare the next runs with: their charts draw it dashed and the summary shows the differences. The baseline stays in this tab; "Copy link with baseline" makes a link that carries it.';
const LINK_TITLE = 'Copy a link that opens this scenario and runs the baseline beside it, so the comparison opens as you see it';

export function BaselineBar({
  result,
  scenario,
  baseline,
  onPin,
  onClear,
  onCopyLink,
}: {
  result: RunResult | null;
  scenario: Scenario | null;
  baseline: Baseline | null;
  onPin: (result: RunResult, scenario: Scenario | null) => void;
  onClear: () => void;
  /** Copies a link carrying the baseline too; none when the baseline's scenario is unknown. */
  onCopyLink?: () => void;
}) {
  const pinned = !!baseline && !!result && baseline.result === result;
  return (
    <div className="baseline-bar" role="group" aria-label="Baseline" data-testid="baseline-bar">
      <button type="button" disabled={!result || pinned} onClick={() => result && onPin(result, scenario)} title={PIN_TITLE} data-testid="pin-baseline">
        {pinned ? 'Pinned as baseline' : 'Pin as baseline'}
      </button>
      {baseline && (
        <>
          <span data-testid="baseline-name">
            Baseline: {baseline.name} (seed {baseline.result.summary.seed}){pinned ? ': run again to compare' : ''}
          </span>
          <button type="button" className="quiet" onClick={onClear} data-testid="clear-baseline">
            Clear baseline
          </button>
          {onCopyLink && !pinned && (
            <button type="button" className="quiet" onClick={onCopyLink} title={LINK_TITLE} data-testid="copy-link-baseline">
              Copy link with baseline
            </button>
          )}
        </>
      )}
    </div>
  );
}
