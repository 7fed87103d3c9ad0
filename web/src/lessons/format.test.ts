import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VIEWS, VIEW_NAMES, parsePath } from './format';
import { LIMITS, validateLesson } from './validate';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const schema = JSON.parse(readFileSync(join(root, 'lessons', 'lesson.schema.json'), 'utf8'));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === 'lessons' || n === 'wasm' ? [] : sources(p);
    return /\.tsx$/.test(n) ? [readFileSync(p, 'utf8')] : [];
  });
}

describe('parsePath', () => {
  it('reads fields and list elements', () => {
    expect(parsePath('topology.links[1].loss.p')).toEqual({
      ok: true,
      tokens: [
        { kind: 'key', key: 'topology' },
        { kind: 'key', key: 'links' },
        { kind: 'index', index: 1 },
        { kind: 'key', key: 'loss' },
        { kind: 'key', key: 'p' },
      ],
    });
  });

  it('refuses what a sweep grid would not accept', () => {
    for (const p of ['', '[0]', 'a.', 'a[]', 'a[-1]', 'a b', 'a.[0]', '$x', 'a["b"]', 'x'.repeat(201)]) expect(parsePath(p).ok).toBe(false);
  });
});

describe('VIEWS', () => {
  it('names elements the app renders', () => {
    const code = sources(fileURLToPath(new URL('../', import.meta.url))).join('\n');
    for (const v of VIEW_NAMES) expect(code, `${v}: data-testid "${VIEWS[v].testid}"`).toMatch(new RegExp(`(data-testid|testid)=["{]"?${VIEWS[v].testid}"`));
  });
});

describe('lesson.schema.json', () => {
  it('lists the fields the validator knows, with the same required ones', () => {
    const empty = validateLesson({}).errors.map((e) => e.path);
    expect([...schema.required].sort()).toEqual([...empty].sort());
    expect(Object.keys(schema.properties).sort()).toEqual(['$schema', 'id', 'steps', 'summary', 'title', 'version']);
    const step = schema.$defs.step;
    const stepErrors = validateLesson({ version: 1, id: 'a', title: 't', summary: 's', steps: [{}] }).errors.map((e) => e.path.replace('steps[0].', ''));
    expect([...step.required].sort()).toEqual([...stepErrors].sort());
    expect(Object.keys(step.properties).sort()).toEqual([...step.required, 'checks'].sort());
    expect(Object.keys(schema.$defs.scenario.properties).sort()).toEqual(['edits', 'preset']);
    expect([...schema.$defs.check.required].sort()).toEqual(['approx', 'result', 'tolerance']);
  });

  it('has the views and limits of the validator', () => {
    expect(schema.$defs.step.properties.look_at.enum).toEqual(VIEW_NAMES);
    expect(schema.properties.steps.maxItems).toBe(LIMITS.steps);
    expect(schema.$defs.scenario.properties.edits.maxProperties).toBe(LIMITS.edits);
    expect(schema.$defs.step.properties.checks.maxItems).toBe(LIMITS.checks);
    expect(schema.properties.title.maxLength).toBe(LIMITS.titleChars);
    expect(schema.$defs.step.properties.text.maxLength).toBe(LIMITS.textChars);
    expect(schema.properties.id.maxLength).toBe(LIMITS.idChars);
  });

  it('has the path syntax of parsePath', () => {
    const re = new RegExp(schema.$defs.scenario.properties.edits.propertyNames.pattern);
    for (const p of ['flows[0].cc', 'topology.links[1].loss.p', 'duration_s', '', 'a.', 'a[x]', '[0]']) expect(re.test(p), p).toBe(parsePath(p).ok);
  });
});
