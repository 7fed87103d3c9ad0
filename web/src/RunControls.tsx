// The results pane's head: the run controls (Run, Run sweep, Cancel, Copy link, Embed, the
// exports and, with `?debug=1`, the crash tests), the cost estimate, the prompt that holds a
// costly run back until the user answers, and the progress of the run under way.

import { useEffect, useRef } from 'react';
import { EmbedCode } from './embed/EmbedCode';
import { aboutCount, inThisBrowser } from './estimate';
import { downloadBytes, downloadText, pcapDownload, resultCsv, summaryJson } from './export/export';
import type { Scenario } from './scenario/types.gen';
import type { SweepRow } from './sim/client';
import type { CostEstimate, PcapFile } from './sim/protocol';
import type { RunResult } from './sim/results';
import { CANCEL_KEYS, RUN_KEYS } from './shortcuts';
import type { AutoRunSource, CostPrompt as Prompt, Phase } from './simulation';

/** What RunControls calls (useSimulation's actions). */
export interface RunActions {
  run: () => void;
  runSweep: () => void;
  cancel: () => void;
  sweepCsv: (rows: SweepRow[]) => Promise<string | undefined>;
  pcap: () => Promise<{ files: PcapFile[]; missed: number } | undefined>;
  crashTest: (when: 'now' | 'next-run' | 'oom') => void;
}

export function RunControls({
  valid,
  running,
  hasSweep,
  actions,
  onShare,
  text,
  scenario,
  coreVersion,
  result,
  sweepRows,
  debug,
}: {
  valid: boolean;
  running: boolean;
  hasSweep: boolean;
  actions: RunActions;
  onShare: () => void;
  text: string;
  scenario: Scenario | null;
  coreVersion: string;
  result: RunResult | null;
  sweepRows: SweepRow[] | null;
  debug: boolean;
}) {
  // Export file names from the scenario's name.
  const base = (scenario?.name ?? 'orbitcp').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
  return (
    <div className="controls" role="group" aria-label="Run controls" id="run-controls" tabIndex={-1}>
      <button type="button" onClick={actions.run} disabled={!valid || running} data-testid="run" title="Run (Ctrl+Enter or ⌘+Enter)" aria-keyshortcuts={RUN_KEYS}>
        Run
      </button>
      {hasSweep && (
        <button type="button" onClick={actions.runSweep} disabled={!valid || running} data-testid="run-sweep">
          Run sweep
        </button>
      )}
      <button type="button" onClick={actions.cancel} disabled={!running} data-testid="cancel" title="Cancel the run (Esc)" aria-keyshortcuts={CANCEL_KEYS}>
        Cancel
      </button>
      <button type="button" onClick={onShare} disabled={!scenario} data-testid="share">
        Copy link
      </button>
      <EmbedCode text={text} scenarioName={scenario?.name ?? ''} coreVersion={coreVersion} disabled={!scenario} />
      <button type="button" disabled={!result} onClick={() => result && downloadText(`${base}.json`, summaryJson(result.summary), 'application/json')}>
        Export JSON
      </button>
      <button type="button" disabled={!result && !sweepRows} onClick={() => {
        if (sweepRows) {
          void actions.sweepCsv(sweepRows).then((csv) => csv !== undefined && downloadText(`${base}-sweep.csv`, csv, 'text/csv'));
        } else if (result) downloadText(`${base}.csv`, resultCsv(result), 'text/csv');
      }}>
        Export CSV
      </button>
      <button type="button" disabled={!result || !!sweepRows} data-testid="download-pcap" title="Every packet of each link, for Wireshark (docs/pcap.md)" onClick={() => {
        void actions.pcap().then((cap) => {
          if (!cap || cap.files.length === 0) return;
          const d = pcapDownload(base, cap.files);
          downloadBytes(d.name, d.bytes, d.mime);
        });
      }}>
        Download pcap
      </button>
      {debug && (
        <details className="crash-tests">
          <summary>Crash tests</summary>
          <button type="button" className="quiet" onClick={() => actions.crashTest('now')} data-testid="crash">
            Panic now
          </button>
          <button type="button" className="quiet" onClick={() => actions.crashTest('next-run')} data-testid="crash-next-run">
            Panic during the next run
          </button>
          <button type="button" className="quiet" onClick={() => actions.crashTest('oom')} data-testid="crash-oom">
            Run out of memory
          </button>
        </details>
      )}
    </div>
  );
}

/** "Estimated cost: 98 million events over 1,760 runs, about 20 s in this browser on 2 workers." */
export function EstimateLine({ estimate, workers }: { estimate: CostEstimate; workers: number }) {
  return (
    <p className="estimate" data-testid="estimate">
      Estimated cost: {aboutCount(estimate.events)} events{estimate.runs > 1 ? ` over ${estimate.runs.toLocaleString('en')} runs` : ''},{' '}
      {inThisBrowser(estimate, workers)}.
    </p>
  );
}

/** What the cost prompt says was held back, by who asked for the run. */
const COST_PROMPT_SUBJECT: Record<AutoRunSource, string> = {
  lesson: 'This lesson step',
  preset: 'This preset',
  link: 'This shared scenario',
  slider: 'The run after your change',
};

/** A costly run put to the user: the question comes into view with its answer focused, wherever
 * the page was scrolled (a card low on the landing, the form on a phone). */
export function CostPrompt({ prompt, workers, onAnswer }: { prompt: Prompt; workers: number; onAnswer: (runIt: boolean) => void }) {
  const runButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    runButton.current?.scrollIntoView({ block: 'center' });
    runButton.current?.focus({ preventScroll: true });
  }, [prompt]);
  const { estimate } = prompt;
  return (
    <div className="notice" role="alertdialog" aria-labelledby="cost-prompt-text" data-testid="cost-prompt">
      <span id="cost-prompt-text">
        {COST_PROMPT_SUBJECT[prompt.source]} was not started: it would take {inThisBrowser(estimate, workers)} ({aboutCount(estimate.events)} events
        {estimate.runs > 1 ? `, ${estimate.runs.toLocaleString('en')} runs` : ''}). Run it anyway?
      </span>{' '}
      <button type="button" data-testid="cost-run" ref={runButton} onClick={() => onAnswer(true)}>
        Run it
      </button>{' '}
      <button type="button" className="quiet" onClick={() => onAnswer(false)}>
        Not now
      </button>
    </div>
  );
}

/** The run or sweep under way: how far, in words, and the time left once it can be told. */
export function RunProgress({ phase }: { phase: Extract<Phase, { kind: 'running' }> }) {
  return (
    <div className="progress" data-testid="progress">
      <progress max={1} value={phase.progress.fraction} aria-label={phase.what === 'sweep' ? 'Sweep progress' : 'Simulated time'} />
      <span>
        {phase.progress.label}
        {phase.progress.timeLeft && <span data-testid="time-left">, {phase.progress.timeLeft}</span>}
      </span>
    </div>
  );
}
