// The page's state (simulation.ts) wired to the simulator: one SimClient for the page's
// lifetime, validation in the core as the text changes, the globe's constellation, runs and
// sweeps with progress and cancel, and a shared link that runs itself once it is valid. App.tsx
// lays out what this returns and calls its actions; it holds no state of its own.

import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { CancelledError, CoreError, CrashError, SimClient, type SweepRow } from './sim/client';
import type { PcapFile } from './sim/protocol';
import type { RunResult } from './sim/results';
import type { Scenario } from './scenario/types.gen';
import { DEFAULT_PRESET_ID, PRESETS, presetById, type Preset } from './scenario/presets';
import { decodeScenario, SHARE_PARAM } from './share/share';
import { withParams } from './share/fragment';
import { PRESET_PARAM, runsOnOpen } from './share/urlState';
import { hasGlobe } from './globe/source';
import { DEFAULT_GLOBE_SPAN_S, derive, initialSimState, needsCostPrompt, simReducer, type AutoRunSource, type InitialScenario, type JobKind } from './simulation';

/** Typing pauses this long before the core validates the text. */
const VALIDATE_DEBOUNCE_MS = 150;

export function parseOrNull(text: string): Scenario | null {
  try {
    return JSON.parse(text) as Scenario;
  } catch {
    return null;
  }
}

/** Rewrites the current history entry's fragment parameters (keeping the others). */
function replaceParams(params: Record<string, string | null>) {
  const url = new URL(window.location.href);
  url.hash = withParams(url.hash, params);
  window.history.replaceState(window.history.state, '', url);
}

/** What the page opens with: a scenario from the URL fragment, or the default preset. */
function initialScenario(): InitialScenario {
  const fallback = presetById(DEFAULT_PRESET_ID) ?? PRESETS[0];
  const hash = new URLSearchParams(window.location.hash.slice(1));
  const shared = hash.get(SHARE_PARAM);
  if (shared !== null) {
    const decoded = decodeScenario(shared);
    if (decoded.ok) return { text: decoded.text, fromUrl: runsOnOpen(window.location.hash) };
    return { text: fallback.text, presetId: fallback.id, notice: `This link's scenario could not be opened: ${decoded.error}. The default scenario is loaded instead.`, fromUrl: false };
  }
  const presetId = hash.get(PRESET_PARAM);
  if (presetId !== null) {
    const p = presetById(presetId);
    if (p) return { text: p.text, presetId: p.id, fromUrl: runsOnOpen(window.location.hash) };
    return { text: fallback.text, presetId: fallback.id, notice: `There is no preset called "${presetId}". The default scenario is loaded instead.`, fromUrl: false };
  }
  return { text: fallback.text, presetId: fallback.id, fromUrl: runsOnOpen(window.location.hash) };
}

export function useSimulation() {
  const [state, dispatch] = useReducer(simReducer, undefined, () => initialSimState(initialScenario()));
  const clientRef = useRef<SimClient | null>(null);
  /** Cancels the job in progress (the client's handle is not state: it never renders). */
  const cancelRef = useRef<(() => void) | null>(null);
  const jobRef = useRef(0);
  const { text, coreVersion } = state;
  const { valid, running, autoRunDue, globeSpanS } = derive(state);
  const scenario = useMemo(() => parseOrNull(text), [text]);
  const hasSweep = !!scenario?.sweep;
  const constellation = hasGlobe(scenario);

  useEffect(() => {
    const client = new SimClient();
    clientRef.current = client;
    client.onCrash = (message) => dispatch({ type: 'crashed', message });
    void client.ready().then((v) => {
      dispatch({ type: 'ready', coreVersion: v, workers: client.size });
      document.body.dataset.ready = 'true';
    });
    return () => client.dispose();
  }, []);

  /** What the validation below reads when its answer comes: whether a slider's run waits on it,
   * and the estimate of the text before. */
  const pendingRun = useRef({ autoRun: state.autoRun, estimate: state.estimate });
  pendingRun.current = { autoRun: state.autoRun, estimate: state.estimate };

  // Validate in the core (debounced), so the editor shows the same errors the CLI would.
  useEffect(() => {
    const handle = setTimeout(() => {
      const client = clientRef.current;
      if (!client) return;
      client
        .validate(text)
        .then(async (errors) => {
          // A slider's run goes on the estimate of the text before: the new estimate is a pilot
          // run, which for a scenario cheap enough to have sliders is as long as the run itself.
          const before = pendingRun.current;
          if (errors.length === 0 && before.autoRun === 'slider' && before.estimate) dispatch({ type: 'validated', text, errors, estimate: before.estimate });
          dispatch({ type: 'validated', text, errors, estimate: errors.length === 0 ? await client.estimate(text) : null });
        })
        // The core's refusal names its field, so the editor places it like a validation problem.
        .catch((e: Error) =>
          dispatch({ type: 'validation-failed', text, ...(e instanceof CoreError ? e.problem : { path: '', message: e.message }) }),
        );
    }, VALIDATE_DEBOUNCE_MS);
    return () => clearTimeout(handle);
  }, [text]);

  // The globe's constellation: the scenario's own. Keyed by its text; undefined while a
  // constellation scenario is being edited into validity, so the globe keeps the last good one
  // instead of flickering away.
  const globeSource = constellation ? (valid ? text : undefined) : null;
  useEffect(() => {
    const client = clientRef.current;
    if (globeSource === undefined) return;
    if (!client || !coreVersion || globeSource === null) {
      dispatch({ type: 'view-loaded', view: null });
      return;
    }
    let cancelled = false;
    const spanS = (JSON.parse(globeSource) as { duration_s?: number }).duration_s ?? DEFAULT_GLOBE_SPAN_S;
    client
      .view(globeSource)
      .then((view) => !cancelled && dispatch({ type: 'view-loaded', view: { view, spanS } }))
      .catch((e: Error) => !cancelled && dispatch({ type: 'view-failed', message: e.message }));
    return () => {
      cancelled = true;
    };
  }, [globeSource, coreVersion]);

  /** The text of the last sweep started: the core expands it again to write its CSV. */
  const sweepTextRef = useRef('');
  /** The text of the last run started: its pcap export runs it again with a capture. */
  const runTextRef = useRef('');

  const start = useCallback(
    (what: JobKind) => {
      const client = clientRef.current;
      if (!client || !valid || running) return;
      const job = ++jobRef.current;
      const onProgress = (progress: { fraction: number; label: string }) => dispatch({ type: 'progress', job, progress });
      const sc = parseOrNull(text);
      dispatch({ type: 'started', what, job });
      const fail = (e: Error) =>
        dispatch({ type: 'job-failed', job, reason: e instanceof CancelledError ? 'cancelled' : e instanceof CrashError ? 'crash' : 'error', message: e.message });
      if (what === 'run') {
        // The estimate only orders the simulations on the workers: one of the text before (a
        // slider's) orders them as well, and the result is the same in any order.
        const runSeconds = pendingRun.current.estimate?.run_seconds;
        const handle = client.run(text, onProgress, (result) => dispatch({ type: 'partial', job, result }), runSeconds);
        runTextRef.current = text;
        cancelRef.current = handle.cancel;
        handle.promise.then((result) => dispatch({ type: 'run-finished', job, result, scenario: sc }), fail);
      } else {
        const handle = client.sweep(text, onProgress);
        sweepTextRef.current = text;
        cancelRef.current = handle.cancel;
        handle.promise
          .then(async (rows) => {
            const stats = await client.sweepStats(text, rows);
            dispatch({ type: 'sweep-finished', job, rows, stats, scenario: sc, workers: client.size });
          })
          .catch(fail);
      }
    },
    [text, valid, running],
  );

  // A shared link runs as soon as its scenario is known to be valid, unless it would take long:
  // a link can carry anything, and opening one must not take the tab away.
  useEffect(() => {
    // A run asked for while another goes on (a slider moved again) starts once it has ended,
    // with the text as it is then.
    if (!autoRunDue || !state.estimate || running) return;
    const prompt = needsCostPrompt(state.estimate, state.workers);
    dispatch({ type: 'auto-run-decided', prompt: prompt ? state.estimate : null });
    if (!prompt) start(hasSweep ? 'sweep' : 'run');
  }, [autoRunDue, state.estimate, state.workers, running, hasSweep, start]);

  const actions = useMemo(
    () => ({
      run: () => start('run'),
      runSweep: () => start('sweep'),
      cancel: () => cancelRef.current?.(),
      edit: (t: string) => dispatch({ type: 'edited', text: t }),
      pick: (p: Preset) => dispatch({ type: 'picked', text: p.text, presetId: p.id }),
      /** Puts a scenario in the editor (a lesson step's). The fragment's scenario and preset no
       * longer describe the editor, so they leave the URL; its other parameters stay. */
      load: (t: string) => {
        replaceParams({ [SHARE_PARAM]: null, [PRESET_PARAM]: null });
        dispatch({ type: 'loaded', text: t });
      },
      /** Runs the editor's text once it is valid, through the same path as a shared link: a
       * costly run is put to the user first. After `load` in the same event, it runs the new text. */
      runWhenValid: (source: AutoRunSource = 'lesson') => dispatch({ type: 'run-when-valid', source }),
      dismissNotice: () => dispatch({ type: 'notice-dismissed' }),
      /** The cost prompt's answer: run the shared scenario anyway, or not now. */
      answerCostPrompt: (runIt: boolean) => {
        dispatch({ type: 'cost-prompt-closed' });
        if (runIt) start(hasSweep ? 'sweep' : 'run');
      },
      /** Copies `url`, the link to this screen (share/useUrlState.ts writes it). */
      share: async (url: string) => {
        try {
          await navigator.clipboard.writeText(url);
          dispatch({ type: 'status', status: 'Link copied to the clipboard.' });
        } catch {
          dispatch({ type: 'status', status: 'Link is in the address bar (the clipboard was not available).' });
        }
      },
      crashTest: (when: 'now' | 'next-run' | 'oom') => void clientRef.current?.crash(when),
      /** Runs a scenario beside the page's own job, leaving the page's state alone (a link's
       * baseline); rejects with the core's message. */
      runAside: (t: string): Promise<RunResult> => {
        const client = clientRef.current;
        return client ? client.run(t).promise : Promise.reject(new Error('the simulator is not up'));
      },
      /** The last run's packet capture (docs/pcap.md), the files `orbitcp run --pcap` writes;
       * undefined without a client, and a failure becomes the page's notice. */
      pcap: async (): Promise<{ files: PcapFile[]; missed: number } | undefined> => {
        try {
          return await clientRef.current?.pcap(runTextRef.current);
        } catch (e) {
          dispatch({ type: 'export-failed', what: 'The packet capture', message: (e as Error).message });
          return undefined;
        }
      },
      /** The last sweep's rows as CSV, written by the core (the bytes `orbitcp sweep` prints);
       * undefined without a client, and a failure becomes the page's notice. */
      sweepCsv: async (rows: SweepRow[]): Promise<string | undefined> => {
        try {
          return await clientRef.current?.sweepCsv(sweepTextRef.current, rows);
        } catch (e) {
          dispatch({ type: 'export-failed', what: "The sweep's CSV", message: (e as Error).message });
          return undefined;
        }
      },
    }),
    [start, hasSweep],
  );

  return { state, valid, running, globeSpanS, scenario, hasSweep, actions };
}

/** The page's simulator: its state, what follows from it, and what moves it. */
export type Simulation = ReturnType<typeof useSimulation>;
