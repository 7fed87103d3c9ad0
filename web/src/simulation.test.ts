import { describe, expect, it } from 'vitest';
import { derive, initialSimState, needsCostPrompt, runStateAttribute, simReducer, COST_PROMPT_S, type SimAction, type SimState } from './simulation';
import type { RunResult } from './sim/results';
import type { SweepRow } from './sim/client';
import type { CostEstimate } from './sim/protocol';

const fresh = (over: Partial<SimState> = {}): SimState => ({ ...initialSimState({ text: '{"name":"a"}', presetId: 'p', fromUrl: false }), ...over });
const play = (s: SimState, ...actions: SimAction[]) => actions.reduce(simReducer, s);
const estimate = (browser_seconds: number, runs = 1, longest_run_seconds = browser_seconds / runs): CostEstimate =>
  ({ events: 1000, runs, browser_seconds, longest_run_seconds }) as CostEstimate;
const result = (flows: number, events: number, end_s = 10) => ({ summary: { flows: new Array(flows).fill({}), events, end_s } }) as unknown as RunResult;
const rows = (n: number) => new Array(n).fill({}) as SweepRow[];
/** A valid text whose core is ready. */
const ready = () => play(fresh(), { type: 'ready', coreVersion: '1.0', workers: 2 }, { type: 'validated', text: '{"name":"a"}', errors: [], estimate: estimate(1) });

describe('the scenario text and its validation', () => {
  it('an edit forgets the preset and waits for the core to validate the new text', () => {
    const s = play(ready(), { type: 'edited', text: '{"name":"b"}' });
    expect(s.presetId).toBeUndefined();
    expect(s.validated).toBe(false);
    expect(derive(s).valid).toBe(false);
    expect(derive(play(s, { type: 'validated', text: '{"name":"b"}', errors: [], estimate: estimate(1) })).valid).toBe(true);
  });

  it('ignores a validation of a text that has changed since', () => {
    const s = play(fresh(), { type: 'edited', text: 'x' }, { type: 'validated', text: '{"name":"a"}', errors: [], estimate: estimate(1) });
    expect(s.validated).toBe(false);
    expect(play(s, { type: 'validation-failed', text: '{"name":"a"}', message: 'late' }).errors).toEqual([]);
  });

  it('is invalid with errors, and keeps no estimate for an invalid text', () => {
    const s = play(fresh(), { type: 'validated', text: '{"name":"a"}', errors: [{ path: 'flows', message: 'missing' }], estimate: estimate(1) });
    expect(s.validated).toBe(true);
    expect(s.estimate).toBeNull();
    expect(derive(s).valid).toBe(false);
  });

  it('a failed validation request shows its message as a scenario error', () => {
    const s = play(fresh(), { type: 'validation-failed', text: '{"name":"a"}', message: 'worker gone' });
    expect(s.errors).toEqual([{ path: '', message: 'worker gone' }]);
    expect(derive(s).valid).toBe(false);
  });

  it("the core's refusal stays beside the field it names", () => {
    const s = play(fresh(), { type: 'validation-failed', text: '{"name":"a"}', path: 'sweep.grid', message: 'too many runs' });
    expect(s.errors).toEqual([{ path: 'sweep.grid', message: 'too many runs' }]);
  });

  it("an export that could not be made becomes the page's notice, naming the export", () => {
    expect(play(fresh(), { type: 'export-failed', what: "The sweep's CSV", message: 'the worker crashed' }).notice).toBe(
      "The sweep's CSV could not be written: the worker crashed",
    );
    expect(play(fresh(), { type: 'export-failed', what: 'The packet capture', message: 'the worker crashed' }).notice).toBe(
      'The packet capture could not be written: the worker crashed',
    );
  });

  it('picking a preset sets its text and id and clears the notice', () => {
    const s = play(fresh({ notice: 'old' }), { type: 'picked', text: '{"name":"q"}', presetId: 'q' });
    expect([s.text, s.presetId, s.notice, s.validated]).toEqual(['{"name":"q"}', 'q', null, false]);
  });
});

describe('runs and sweeps', () => {
  it('goes running, reports progress, and is done with the result and a status line', () => {
    let s = play(ready(), { type: 'started', what: 'run', job: 1 });
    expect(s.phase).toEqual({ kind: 'running', what: 'run', job: 1, progress: { fraction: 0, label: 'starting' } });
    expect(derive(s).running).toBe(true);
    s = play(s, { type: 'progress', job: 1, progress: { fraction: 0.5, label: 't = 5 s' } });
    expect(s.phase.kind === 'running' && s.phase.progress.fraction).toBe(0.5);
    s = play(s, { type: 'run-finished', job: 1, result: result(2, 12345), scenario: null });
    expect(s.phase).toEqual({ kind: 'done', what: 'run' });
    expect(s.status).toBe('Run finished: 2 flow(s), 12,345 events.');
    expect(s.result?.summary.events).toBe(12345);
  });

  it('a sweep replaces the run on screen, and a later run replaces the sweep', () => {
    let s = play(ready(), { type: 'started', what: 'run', job: 1 }, { type: 'run-finished', job: 1, result: result(1, 1), scenario: null });
    s = play(s, { type: 'started', what: 'sweep', job: 2 });
    expect(s.phase.kind === 'running' && s.phase.progress.label).toBe('expanding the sweep');
    s = play(s, { type: 'sweep-finished', job: 2, rows: rows(18), stats: [], scenario: null, workers: 2 });
    expect(s.sweepRows).toHaveLength(18);
    expect(s.status).toBe('Sweep finished: 18 runs on 2 workers.');
    s = play(s, { type: 'started', what: 'run', job: 3 }, { type: 'run-finished', job: 3, result: result(1, 2), scenario: null });
    expect(s.sweepRows).toBeNull();
    expect(s.result?.summary.events).toBe(2);
  });

  it('starting clears the last notice and status, and a second start while running is ignored', () => {
    let s = play(ready(), { type: 'status', status: 'Link copied.' });
    s = { ...s, notice: 'old' };
    s = play(s, { type: 'started', what: 'run', job: 1 });
    expect([s.notice, s.status]).toEqual([null, '']);
    expect(play(s, { type: 'started', what: 'sweep', job: 2 }).phase).toBe(s.phase);
  });

  it('ignores the progress and the end of any job but the running one', () => {
    const s = play(ready(), { type: 'started', what: 'run', job: 2 });
    expect(play(s, { type: 'progress', job: 1, progress: { fraction: 0.9, label: 'late' } })).toBe(s);
    expect(play(s, { type: 'run-finished', job: 1, result: result(1, 1), scenario: null })).toBe(s);
    expect(play(s, { type: 'job-failed', job: 1, reason: 'cancelled', message: 'cancelled' })).toBe(s);
  });

  it("keeps a running job's result so far until its end, and no other job's", () => {
    const soFar = result(1, 10, 3);
    let s = play(ready(), { type: 'started', what: 'run', job: 1 }, { type: 'partial', job: 2, result: soFar });
    expect(s.phase).toMatchObject({ kind: 'running' });
    expect(s.phase.kind === 'running' && s.phase.partial).toBeFalsy();
    s = play(s, { type: 'partial', job: 1, result: soFar }, { type: 'progress', job: 1, progress: { fraction: 0.5, label: 'half' } });
    expect(s.phase.kind === 'running' && s.phase.partial).toBe(soFar);
    expect(s.result).toBeNull();
    const done = play(s, { type: 'run-finished', job: 1, result: result(1, 99), scenario: null });
    expect(done.result?.summary.events).toBe(99);
    expect(done.phase).toEqual({ kind: 'done', what: 'run' });
    // The next run starts without the last one's partial result.
    const again = play(done, { type: 'started', what: 'run', job: 2 });
    expect(again.phase.kind === 'running' && again.phase.partial).toBeFalsy();
  });

  it('a cancelled job says so in the status line and keeps the last result', () => {
    let s = play(ready(), { type: 'started', what: 'run', job: 1 }, { type: 'run-finished', job: 1, result: result(1, 7), scenario: null });
    s = play(s, { type: 'started', what: 'run', job: 2 }, { type: 'job-failed', job: 2, reason: 'cancelled', message: 'cancelled' });
    expect(s.phase).toEqual({ kind: 'cancelled', what: 'run' });
    expect(s.status).toBe('Run cancelled.');
    expect(s.result?.summary.events).toBe(7);
    const sweep = play(ready(), { type: 'started', what: 'sweep', job: 1 }, { type: 'job-failed', job: 1, reason: 'cancelled', message: 'cancelled' });
    expect(sweep.status).toBe('Sweep cancelled.');
  });

  it('a failed job shows its message as a notice', () => {
    const s = play(ready(), { type: 'started', what: 'run', job: 1 }, { type: 'job-failed', job: 1, reason: 'error', message: 'flows[0]: no route' });
    expect(s.phase).toEqual({ kind: 'failed', what: 'run' });
    expect(s.notice).toBe('flows[0]: no route');
  });

  it("a crash during a run keeps the client's crash notice; during a sweep the notice names the job", () => {
    const run = play(
      ready(),
      { type: 'started', what: 'run', job: 1 },
      { type: 'crashed', message: 'deliberate panic' },
      { type: 'job-failed', job: 1, reason: 'crash', message: 'deliberate panic' },
    );
    expect(run.phase).toEqual({ kind: 'crashed', what: 'run', job: 1 });
    expect(run.notice).toBe('The simulator crashed and was restarted: deliberate panic');
    const sweep = play(
      ready(),
      { type: 'started', what: 'sweep', job: 1 },
      { type: 'crashed', message: 'deliberate panic' },
      { type: 'job-failed', job: 1, reason: 'crash', message: 'Sweep stopped: run 1 of 12 failed' },
    );
    expect(sweep.notice).toBe('The simulator crashed and was restarted. Sweep stopped: run 1 of 12 failed');
    // The next run starts from the crashed state.
    expect(play(sweep, { type: 'started', what: 'run', job: 2 }).phase.kind).toBe('running');
  });

  it('a crash with no job running is told, and a job still running elsewhere may finish', () => {
    const idle = play(ready(), { type: 'crashed', message: 'now' });
    expect(idle.phase).toEqual({ kind: 'crashed' });
    expect(idle.notice).toContain('crashed and was restarted');
    const s = play(ready(), { type: 'started', what: 'run', job: 4 }, { type: 'crashed', message: 'other worker' }, { type: 'run-finished', job: 4, result: result(1, 3), scenario: null });
    expect(s.phase).toEqual({ kind: 'done', what: 'run' });
  });
});

describe('the run state the page shows', () => {
  it('is running or done while so, and idle when no job output is on screen', () => {
    expect(runStateAttribute({ kind: 'running', what: 'run', job: 1, progress: { fraction: 0, label: '' } })).toBe('running');
    expect(runStateAttribute({ kind: 'done', what: 'sweep' })).toBe('done');
    for (const phase of [{ kind: 'idle' }, { kind: 'cancelled', what: 'run' }, { kind: 'failed', what: 'sweep' }, { kind: 'crashed', what: 'run', job: 2 }] as const)
      expect(runStateAttribute(phase)).toBe('idle');
  });
});

describe('a shared link', () => {
  it('is due to run once it is valid, the core is ready and its cost is known, and only once', () => {
    let s = play(initialSimState({ text: '{"name":"a"}', fromUrl: true }));
    expect(derive(s).autoRunDue).toBe(false);
    s = play(s, { type: 'validated', text: '{"name":"a"}', errors: [], estimate: estimate(1) });
    expect(derive(s).autoRunDue).toBe(false);
    s = play(s, { type: 'ready', coreVersion: '1.0', workers: 2 });
    expect(derive(s).autoRunDue).toBe(true);
    s = play(s, { type: 'auto-run-decided', prompt: null });
    expect(derive(s).autoRunDue).toBe(false);
    expect(s.costPrompt).toBeNull();
  });

  it('asks first when it would take longer than the threshold', () => {
    expect(needsCostPrompt(estimate(COST_PROMPT_S + 1), 1)).toBe(true);
    expect(needsCostPrompt(estimate(COST_PROMPT_S), 1)).toBe(false);
    // Runs shared among workers: a sweep of many short runs, but not one long flow among short ones.
    expect(needsCostPrompt(estimate(1.5 * COST_PROMPT_S, 100), 2)).toBe(false);
    expect(needsCostPrompt(estimate(1.5 * COST_PROMPT_S, 5, 1.2 * COST_PROMPT_S), 2)).toBe(true);
    const s = play(initialSimState({ text: 't', fromUrl: true }), { type: 'auto-run-decided', prompt: estimate(100) });
    expect(s.costPrompt).toEqual({ estimate: estimate(100), source: 'link' });
    expect(play(s, { type: 'cost-prompt-closed' }).costPrompt).toBeNull();
  });

  it('a link that could not be opened starts with its notice, and a dismissed notice is gone', () => {
    const s = initialSimState({ text: 't', notice: 'could not be opened', fromUrl: false });
    expect(s.notice).toBe('could not be opened');
    expect(play(s, { type: 'notice-dismissed' }).notice).toBeNull();
  });
});

describe("a lesson step's run", () => {
  const step = '{"name":"step"}';

  it('puts the text in the editor and is due once it is valid, then only once', () => {
    let s = play(ready(), { type: 'loaded', text: step });
    expect(s.text).toBe(step);
    expect(s.autoRun).toBeNull();
    s = play(s, { type: 'run-when-valid', source: 'lesson' });
    expect(s.presetId).toBeUndefined();
    expect(derive(s).autoRunDue).toBe(false);
    s = play(s, { type: 'validated', text: step, errors: [], estimate: estimate(1) });
    expect(derive(s).autoRunDue).toBe(true);
    s = play(s, { type: 'auto-run-decided', prompt: null });
    expect(derive(s).autoRunDue).toBe(false);
  });

  it('is due at once when the editor already holds the step, validated', () => {
    let s = play(ready(), { type: 'edited', text: step }, { type: 'validated', text: step, errors: [], estimate: estimate(1) });
    s = play(s, { type: 'loaded', text: step }, { type: 'run-when-valid', source: 'lesson' });
    expect(derive(s).autoRunDue).toBe(true);
  });

  it('asks first when costly, saying the lesson asked', () => {
    const s = play(ready(), { type: 'loaded', text: step }, { type: 'run-when-valid', source: 'lesson' }, { type: 'auto-run-decided', prompt: estimate(COST_PROMPT_S * 3) });
    expect(s.costPrompt).toEqual({ estimate: estimate(COST_PROMPT_S * 3), source: 'lesson' });
  });

  it('is called off by an edit or a preset picked before it starts, unlike a shared link', () => {
    const loaded = play(ready(), { type: 'loaded', text: step }, { type: 'run-when-valid', source: 'lesson' });
    expect(play(loaded, { type: 'edited', text: '{"name":"mine"}' }).autoRun).toBeNull();
    expect(play(loaded, { type: 'picked', text: '{"name":"p"}', presetId: 'p' }).autoRun).toBeNull();
    expect(play(loaded, { type: 'loaded', text: '{"name":"next step"}' }).autoRun).toBeNull();
    const link = initialSimState({ text: step, fromUrl: true });
    expect(play(link, { type: 'edited', text: '{"name":"fixed"}' }).autoRun).toBe('link');
  });
});

describe("a preset card's run", () => {
  const preset = '{"name":"preset"}';

  it('runs the picked preset once valid, asks first when costly naming the card, and an edit calls it off', () => {
    const picked = play(ready(), { type: 'picked', text: preset, presetId: 'p' }, { type: 'run-when-valid', source: 'preset' });
    expect(derive(play(picked, { type: 'validated', text: preset, errors: [], estimate: estimate(1) })).autoRunDue).toBe(true);
    const costly = play(picked, { type: 'validated', text: preset, errors: [], estimate: estimate(COST_PROMPT_S * 3) }, { type: 'auto-run-decided', prompt: estimate(COST_PROMPT_S * 3) });
    expect(costly.costPrompt).toEqual({ estimate: estimate(COST_PROMPT_S * 3), source: 'preset' });
    expect(play(picked, { type: 'edited', text: '{"name":"mine"}' }).autoRun).toBeNull();
    expect(play(picked, { type: 'picked', text: '{"name":"other"}', presetId: 'o' }).autoRun).toBeNull();
  });
});

describe("a result beside another scenario", () => {
  const view = { view: {} as never, spanS: 600 };
  const finished = () =>
    play(ready(), { type: 'view-loaded', view }, { type: 'started', what: 'run', job: 1 }, { type: 'run-finished', job: 1, result: result(1, 5), scenario: { name: 'a' } as never });

  it('another preset or lesson step takes the result and the globe away, so neither is shown beside it', () => {
    for (const a of [{ type: 'picked', text: '{"name":"q"}', presetId: 'q' }, { type: 'loaded', text: '{"name":"step"}' }] as SimAction[]) {
      const s = play(finished(), a);
      expect([s.result, s.resultScenario, s.view, runStateAttribute(s.phase)]).toEqual([null, null, null, 'idle']);
    }
  });

  it('the same text again keeps the result, and an edit keeps it for the page to mark out of date', () => {
    expect(play(finished(), { type: 'loaded', text: '{"name":"a"}' }).result).not.toBeNull();
    const edited = play(finished(), { type: 'edited', text: '{"name":"b"}' });
    expect([edited.result !== null, edited.view]).toEqual([true, view]);
  });

  it('a run in progress goes on when the text is replaced, and its result still arrives', () => {
    const s = play(ready(), { type: 'started', what: 'run', job: 1 }, { type: 'picked', text: '{"name":"q"}', presetId: 'q' });
    expect(runStateAttribute(s.phase)).toBe('running');
    expect(play(s, { type: 'run-finished', job: 1, result: result(1, 5), scenario: null }).result).not.toBeNull();
  });
});

describe('the globe', () => {
  it("spans the run's end once there is one, else the scenario's duration", () => {
    const view = { view: {} as never, spanS: 600 };
    let s = play(ready(), { type: 'view-loaded', view });
    expect(derive(s).globeSpanS).toBe(600);
    s = play(s, { type: 'started', what: 'run', job: 1 }, { type: 'run-finished', job: 1, result: result(1, 1, 120), scenario: null });
    expect(derive(s).globeSpanS).toBe(120);
  });

  it('a constellation the globe cannot show clears the view and says why', () => {
    const s = play(ready(), { type: 'view-loaded', view: { view: {} as never, spanS: 10 } }, { type: 'view-failed', message: 'no satellites' });
    expect(s.view).toBeNull();
    expect(s.notice).toBe('The globe cannot show this constellation: no satellites');
  });
});
