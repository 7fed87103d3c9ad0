// What the landing shows: one card per lesson, then one per preset that reproduces a paper's
// experiment (a preset with `paper`), each with a line of what it shows, the paper, and the
// preset whose thumbnail it carries. Pure, so the list is tested without rendering it.

import type { Preset } from '../scenario/presets';
import type { ResolvedLesson } from '../lessons/format';
import { firstSentence } from '../editor/model';

export type LandingCard =
  | { kind: 'lesson'; key: string; lesson: number; title: string; line: string; paper?: string; thumbnailOf?: string; steps: number }
  | { kind: 'preset'; key: string; preset: Preset; title: string; line: string; paper?: string; thumbnailOf: string; sweep: boolean };

/** The paper's name and figure, without the setup that follows a colon ("The WINDS paper, Table 4
 * (24 Mb/s row): average throughput of ..." → "the WINDS paper, Table 4 (24 Mb/s row)"). A colon
 * in a paper's title ("INTCP: Information-centric TCP ...") is not such a cut: the part before
 * it names no figure, table or section. */
export function paperLine(source: string | undefined): string | undefined {
  if (!source) return undefined;
  const colon = source.indexOf(': ');
  const head = colon > 0 ? source.slice(0, colon) : '';
  const line = /\b(Fig|Figs|Table|Section|eqs?)\b/.test(head) ? head : source;
  return line.replace(/^The /, 'the ');
}

/** Safe text's marks (`*x*`, `**x**`, `` `x` ``, `^{x}`, `_{x}`) as plain words, for one line on a card. */
export function plainText(safe: string): string {
  return safe
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\*([^*]+)\*/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/[\^_]\{([^}]*)\}/g, '$1');
}

export function landingCards(presets: readonly Preset[], lessons: readonly ResolvedLesson[]): LandingCard[] {
  const byId = new Map(presets.map((p) => [p.id, p]));
  const lessonCards: LandingCard[] = lessons.map((l, i) => {
    // A lesson's first step names its preset (the format requires it: there is no step before).
    const first = l.lesson.steps[0]?.scenario.preset;
    const preset = first !== undefined ? byId.get(first) : undefined;
    return {
      kind: 'lesson',
      key: `lesson-${l.lesson.id}`,
      lesson: i,
      title: l.lesson.title,
      line: firstSentence(plainText(l.lesson.summary)),
      paper: paperLine(preset?.scenario.paper?.source),
      thumbnailOf: preset?.id,
      steps: l.lesson.steps.length,
    };
  });
  const presetCards: LandingCard[] = presets
    .filter((p) => p.scenario.paper)
    .map((p) => ({
      kind: 'preset',
      key: `preset-${p.id}`,
      preset: p,
      title: p.scenario.name,
      line: firstSentence(p.scenario.description ?? ''),
      paper: paperLine(p.scenario.paper?.source),
      thumbnailOf: p.id,
      sweep: !!p.scenario.sweep,
    }));
  return [...lessonCards, ...presetCards];
}
