// The lessons of lessons/, bundled as text at build time like the presets, checked and resolved
// against the presets. A file that fails is left out of the list and its problems are kept for
// the page to show; lessons.test.ts fails on any, so none ship.

import { PRESETS } from '../scenario/presets';
import type { PresetSource } from './resolve';
import { resolveLesson } from './resolve';
import { validateLesson } from './validate';
import type { LessonError, ResolvedLesson } from './format';

export interface LessonFile {
  /** File name without `.json`. */
  name: string;
  text: string;
}

export interface LessonProblem {
  file: string;
  errors: LessonError[];
}

/** Checks and resolves lesson files, in file-name order (the files start with their number). */
export function loadLessons(files: readonly LessonFile[], presets: readonly PresetSource[]): { lessons: ResolvedLesson[]; problems: LessonProblem[] } {
  const lessons: ResolvedLesson[] = [];
  const problems: LessonProblem[] = [];
  for (const f of [...files].sort((a, b) => a.name.localeCompare(b.name))) {
    const file = `lessons/${f.name}.json`;
    let value: unknown;
    try {
      value = JSON.parse(f.text);
    } catch (e) {
      problems.push({ file, errors: [{ path: '', message: `not valid JSON: ${(e as Error).message}` }] });
      continue;
    }
    const { lesson, errors } = validateLesson(value);
    if (!lesson) {
      problems.push({ file, errors });
      continue;
    }
    const fileId = f.name.replace(/^\d+-/, '');
    if (lesson.id !== fileId) {
      problems.push({ file, errors: [{ path: 'id', message: `"${lesson.id}" differs from the file name's id "${fileId}" (files are named NN-<id>.json)` }] });
      continue;
    }
    const { resolved, errors: resolveErrors } = resolveLesson(lesson, presets);
    if (resolved) lessons.push(resolved);
    else problems.push({ file, errors: resolveErrors });
  }
  return { lessons, problems };
}

const raw = import.meta.glob(['../../../lessons/*.json', '!../../../lessons/*.schema.json'], { eager: true, query: '?raw', import: 'default' }) as Record<
  string,
  string
>;

export const LESSON_FILES: LessonFile[] = Object.entries(raw).map(([path, text]) => ({ name: path.replace(/^.*\//, '').replace(/\.json$/, ''), text }));

const loaded = loadLessons(LESSON_FILES, PRESETS);

/** The lessons, in order: what the panel lists. */
export const LESSONS: ResolvedLesson[] = loaded.lessons;

/** Lesson files that could not be used, with why. */
export const LESSON_PROBLEMS: LessonProblem[] = loaded.problems;
