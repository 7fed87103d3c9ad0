// Drag a number, see the run: while the scenario is cheap enough to run as fast as a hand moves
// (its estimate under LIVE_SLIDER_S), the form's link numbers get a slider, and each move writes
// the number and runs the scenario again (the page draws the run before it dashed). The page
// provides whether sliders are live and what a move starts (LiveSliderContext).

import { createContext, useContext, useId } from 'react';
import type { Json } from './model';

/** A scenario whose runs are estimated under this many seconds gets sliders. */
export const LIVE_SLIDER_S = 0.3;

export interface LiveSlider {
  /** Called after a slider wrote its number: the page runs the new text. */
  onSlide: () => void;
}

/** Null: no sliders (the scenario is too costly to run at each move, or not valid). */
export const LiveSliderContext = createContext<LiveSlider | null>(null);

export interface SliderRange {
  min: number;
  max: number;
  step: number;
}

/** The numbers that get a slider, by path, and the range it covers: what a class would try. */
const RANGES: [RegExp, SliderRange][] = [
  [/^topology\.links\[\d+\]\.loss\.p$/, { min: 0, max: 0.2, step: 0.001 }],
  [/^topology\.links\[\d+\]\.delay_ms$/, { min: 0, max: 1000, step: 5 }],
  [/^topology\.links\[\d+\]\.rate_mbps$/, { min: 1, max: 100, step: 1 }],
  [/^topology\.links\[\d+\]\.buffer_pkts$/, { min: 1, max: 2000, step: 1 }],
];

/** The slider range of the number at `path`, if it has one. */
export function sliderRange(path: string): SliderRange | null {
  return RANGES.find(([re]) => re.test(path))?.[1] ?? null;
}

/** The slider of a number field, when sliders are live and the field has a range; the range
 * stretches to a value set beyond it by hand. */
export function NumberSlider({ path, label, value, onChange }: { path: string; label: string; value: Json | undefined; onChange: (value: Json) => void }) {
  const live = useContext(LiveSliderContext);
  const id = useId();
  const range = sliderRange(path);
  if (!live || !range || typeof value !== 'number') return null;
  const min = Math.min(range.min, value);
  const max = Math.max(range.max, value);
  return (
    <div className="field wide slider-field">
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={range.step}
        value={value}
        aria-label={`${label}: drag to run again`}
        data-testid={`slider-${path}`}
        onChange={(e) => {
          const v = Number(e.target.value);
          if (!Number.isFinite(v) || v === value) return;
          onChange(v);
          live.onSlide();
        }}
      />
    </div>
  );
}
