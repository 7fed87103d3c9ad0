// Every lesson in lessons/ is valid, its steps' presets exist, its edits fit, and every step's
// scenario is one the core accepts (its strict parsing refuses a field name the format does not
// know, so an edit that adds a misspelt field fails here). The numbers the answers state are
// checked against runs by wasm-core/tests-node/lessons.test.mjs.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PRESETS } from '../scenario/presets';
import { LESSONS, LESSON_FILES, LESSON_PROBLEMS, loadLessons } from './catalog';
import { VIEWS } from './format';
import { parseText } from './text';

async function coreValidate(): Promise<(json: string) => { path: string; message: string }[]> {
  const glue = await import('../wasm/pkg-orbit/orbitcp_core_orbit.js');
  glue.initSync({ module: readFileSync(fileURLToPath(new URL('../wasm/pkg-orbit/orbitcp_core_orbit_bg.wasm', import.meta.url))) });
  return (json) => JSON.parse(glue.validate_scenario(json));
}

describe('the lessons of lessons/', () => {
  it('are all valid and resolve against the presets', () => {
    expect(LESSON_PROBLEMS).toEqual([]);
    expect(LESSON_FILES.length).toBeGreaterThanOrEqual(6);
    expect(LESSONS).toHaveLength(LESSON_FILES.length);
  });

  it('are numbered in order from 01, one file per id', () => {
    const names = LESSON_FILES.map((f) => f.name).sort();
    names.forEach((n, i) => expect(n).toMatch(new RegExp(`^${String(i + 1).padStart(2, '0')}-[a-z0-9-]+$`)));
    expect(LESSONS.map((l) => l.lesson.id)).toEqual(names.map((n) => n.replace(/^\d+-/, '')));
  });

  it('give every step a scenario the core accepts', async () => {
    const validate = await coreValidate();
    for (const { lesson, scenarios } of LESSONS) {
      scenarios.forEach((s, i) => expect(validate(JSON.stringify(s)), `${lesson.id} step ${i + 1}`).toEqual([]));
    }
  });

  it('change something from one step to the next, or say why not', () => {
    // A step that keeps the previous scenario (`edits: {}`) looks at another view of the same run.
    for (const { lesson, scenarios } of LESSONS) {
      for (let i = 1; i < scenarios.length; i++) {
        if (JSON.stringify(scenarios[i]) === JSON.stringify(scenarios[i - 1])) {
          expect(lesson.steps[i].look_at, `${lesson.id} step ${i + 1} repeats step ${i}'s run`).not.toBe(lesson.steps[i - 1].look_at);
        }
      }
    }
  });

  it('point at views that the step\'s run shows', () => {
    for (const { lesson, scenarios } of LESSONS) {
      lesson.steps.forEach((step, i) => {
        const s = scenarios[i];
        const where = `${lesson.id} step ${i + 1}`;
        if (step.look_at === 'globe') expect(s.topology.kind, where).toBe('constellation');
        if (step.look_at === 'coding' || step.look_at === 'capacity') expect(s.flows.some((f) => f.transport === 'ctcp'), where).toBe(true);
        if (step.look_at === 'hops') expect(s.flows.some((f) => f.transport === 'intcp'), where).toBe(true);
        if (step.look_at === 'fairness') expect(s.flows.length, where).toBeGreaterThan(1);
        expect(VIEWS[step.look_at]).toBeDefined();
      });
    }
  });

  it('write their text in the safe subset without stray marks', () => {
    const marks = /[*`]|\^\{|_\{/;
    for (const { lesson } of LESSONS) {
      for (const [where, text] of [['summary', lesson.summary], ...lesson.steps.flatMap((s, i) => [[`step ${i + 1} text`, s.text], [`step ${i + 1} question`, s.question], [`step ${i + 1} answer`, s.answer]])]) {
        // Every mark pairs up: what is left as plain text has no mark characters in it.
        const leftover = JSON.stringify(parseText(text).map((b) => (b.kind === 'paragraph' ? b.children : b.items.flat())).flat().filter((n) => n.kind === 'text'));
        expect(marks.test(leftover), `${lesson.id} ${where}`).toBe(false);
      }
    }
  });
});

describe('loadLessons', () => {
  const ok = LESSON_FILES[0];
  it('reports a file that is not JSON, an invalid lesson, a misnamed one and a broken step, each with its file', () => {
    const bad = JSON.parse(ok.text);
    const { lessons, problems } = loadLessons(
      [
        { name: '90-broken', text: '{"version": 1,' },
        { name: '91-empty', text: '{}' },
        { name: '92-other', text: ok.text },
        { name: '93-x', text: JSON.stringify({ ...bad, id: 'x', steps: [{ ...bad.steps[0], scenario: { preset: 'no-such-preset' } }] }) },
        ok,
      ],
      PRESETS,
    );
    expect(lessons.map((l) => l.lesson.id)).toEqual([JSON.parse(ok.text).id]);
    expect(problems.map((p) => p.file)).toEqual(['lessons/90-broken.json', 'lessons/91-empty.json', 'lessons/92-other.json', 'lessons/93-x.json']);
    expect(problems[0].errors[0].message).toMatch(/^not valid JSON/);
    expect(problems[1].errors.map((e) => e.path)).toContain('steps');
    expect(problems[2].errors[0].path).toBe('id');
    expect(problems[3].errors).toEqual([{ path: 'steps[0].scenario.preset', message: 'there is no preset "no-such-preset" in scenarios/' }]);
  });
});
