// The right pane before anything has run: the lessons and the papers' experiments as cards, each
// with a thumbnail of the chart it produces and one button that starts it. The card's button is
// stretched over the whole card (landing.css), so a click anywhere on it starts it, while
// keyboard and screen-reader users meet one named button per card.

import { useId } from 'react';
import type { Preset } from '../scenario/presets';
import type { LandingCard } from './cards';
import { Sparkline } from './Sparkline';
import { thumbnailOf } from './thumbnails';
import './landing.css';

export interface LandingProps {
  cards: readonly LandingCard[];
  onRunPreset: (p: Preset) => void;
  onStartLesson: (lesson: number) => void;
}

function Card({ card, onRunPreset, onStartLesson }: { card: LandingCard } & Omit<LandingProps, 'cards'>) {
  const uid = useId();
  const thumb = thumbnailOf(card.thumbnailOf);
  const action =
    card.kind === 'lesson'
      ? { text: 'Start lesson', name: `Start lesson: ${card.title}`, testid: `landing-lesson-${card.lesson + 1}`, go: () => onStartLesson(card.lesson) }
      : { text: card.sweep ? 'Run sweep' : 'Run', name: `${card.sweep ? 'Run sweep' : 'Run'}: ${card.title}`, testid: `landing-run-${card.preset.id}`, go: () => onRunPreset(card.preset) };
  return (
    <li className={`landing-card landing-${card.kind}`} data-testid={`card-${card.key}`}>
      <h4 className="card-title">{card.title}</h4>
      {thumb && <Sparkline thumbnail={thumb} />}
      <p className="card-line" id={`${uid}-line`}>
        {card.line}
      </p>
      {card.paper && <p className="card-paper">Reproduces {card.paper}</p>}
      <div className="card-foot">
        {card.kind === 'lesson' && <span className="card-steps">{card.steps} steps</span>}
        <button type="button" className="card-action primary" aria-label={action.name} aria-describedby={`${uid}-line`} onClick={action.go} data-testid={action.testid}>
          {action.text}
        </button>
      </div>
    </li>
  );
}

export function Landing({ cards, onRunPreset, onStartLesson }: LandingProps) {
  const uid = useId();
  const lessons = cards.filter((c) => c.kind === 'lesson');
  const presets = cards.filter((c) => c.kind === 'preset');
  return (
    <section className="landing" aria-labelledby={`${uid}-title`} data-testid="landing">
      <h2 id={`${uid}-title`}>Start here</h2>
      <p className="landing-intro">
        Pick a guided lesson, or run one of the papers' experiments with one click. The small charts are what each one produces. Or edit the scenario on the left and press
        Run.
      </p>
      <h3 id={`${uid}-lessons`}>Lessons</h3>
      <ul className="landing-grid" aria-labelledby={`${uid}-lessons`}>
        {lessons.map((c) => (
          <Card key={c.key} card={c} onRunPreset={onRunPreset} onStartLesson={onStartLesson} />
        ))}
      </ul>
      <h3 id={`${uid}-papers`}>The papers' experiments</h3>
      <ul className="landing-grid" aria-labelledby={`${uid}-papers`}>
        {presets.map((c) => (
          <Card key={c.key} card={c} onRunPreset={onRunPreset} onStartLesson={onStartLesson} />
        ))}
      </ul>
    </section>
  );
}
