// The page's side of the form's sliders (slider.tsx): whether they are live (the scenario is
// valid, no sweep, and estimated under LIVE_SLIDER_S on the page's workers), the run a move asks
// for, and the run before a slider's run, which the charts draw dashed as "previous run".

import { useEffect, useMemo, useRef, useState } from 'react';
import type { BaselineRun } from '../charts/baselineRun';
import { wallSeconds } from '../estimate';
import type { Scenario } from '../scenario/types.gen';
import { scenarioChanges } from '../scenario/diff';
import type { CostEstimate } from '../sim/protocol';
import type { RunResult } from '../sim/results';
import type { Phase } from '../simulation';
import { LIVE_SLIDER_S, type LiveSlider } from './slider';

export function useLiveSlider({
  valid,
  validated,
  estimate,
  workers,
  hasSweep,
  phase,
  result,
  resultScenario,
  runWhenValid,
}: {
  valid: boolean;
  validated: boolean;
  estimate: CostEstimate | null;
  workers: number;
  hasSweep: boolean;
  phase: Phase;
  result: RunResult | null;
  resultScenario: Scenario | null;
  runWhenValid: () => void;
}): { slider: LiveSlider | null; previousRun: BaselineRun | null } {
  const cheap = valid && estimate !== null && !hasSweep && wallSeconds(estimate, workers) < LIVE_SLIDER_S;
  // Between a move and the core's validation of the text it wrote, the sliders stay as they were:
  // a slider that vanished under the pointer would end the drag.
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (validated) setLive(cheap);
  }, [validated, cheap]);

  /** A slider moved since the last job started. */
  const moved = useRef(false);
  /** The job running now was asked for by a slider. */
  const jobFromSlider = useRef(false);
  const job = phase.kind === 'running' ? phase.job : null;
  useEffect(() => {
    if (job === null) return;
    jobFromSlider.current = moved.current;
    moved.current = false;
  }, [job]);

  const shown = useRef<{ result: RunResult; scenario: Scenario | null } | null>(null);
  const [previousRun, setPreviousRun] = useState<BaselineRun | null>(null);
  useEffect(() => {
    const before = shown.current;
    shown.current = result ? { result, scenario: resultScenario } : null;
    if (!result || !before || before.result === result || !jobFromSlider.current) {
      setPreviousRun(null);
      return;
    }
    const changes = before.scenario && resultScenario ? scenarioChanges(before.scenario, resultScenario) : [];
    const had = changes.map((c) => `${c.label} ${c.from}`).join(', ');
    setPreviousRun({ result: before.result, scenario: before.scenario, label: had ? `previous run: ${had}` : 'previous run' });
    // Only a result's arrival moves the trail; the scenario comes with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);

  const slider = useMemo(
    () =>
      live
        ? {
            onSlide: () => {
              moved.current = true;
              runWhenValid();
            },
          }
        : null,
    [live, runWhenValid],
  );
  return { slider, previousRun };
}
