// The time cursor on the hop view's small multiples: a rule on every plot where the cursor is,
// and a transparent rect over every plot that moves the cursor where it is pressed or dragged.
// Both cover the same plot areas (hopLayout.ts `plotBoxes`), so a press lands where its rule
// goes.

import { useEffect, useRef, type PointerEvent } from 'react';
import type { ScaleLinear } from 'd3-scale';
import type { TimeCursor } from '../timeCursor';
import { NO_EXPORT } from './exportChart';
import type { PlotBox } from './hopLayout';
import { clamp } from './HopTimeControls';

export function CursorRules({ boxes, xs, xDomain, cursor }: { boxes: PlotBox[]; xs: ScaleLinear<number, number>; xDomain: [number, number]; cursor: TimeCursor }) {
  const ref = useRef<SVGGElement>(null);
  // The rules follow every move of the cursor (up to 60 a second while playing) without React:
  // it draws them once, at x = 0 of each plot, and this moves them all with one transform.
  useEffect(() => {
    const g = ref.current;
    if (!g) return;
    const place = (t: number) => g.setAttribute('transform', `translate(${xs(clamp(t, xDomain))},0)`);
    place(cursor.get());
    return cursor.subscribe(place);
  }, [cursor, xs, xDomain]);
  return (
    // Exported with the rest: the strip shows this instant, the rules say which it is.
    <g ref={ref} className="hop-cursor-rules" pointerEvents="none" data-testid="hop-cursor-rules">
      {boxes.map((b) => (
        <line key={b.key} className="hover-rule" x1={b.x} x2={b.x} y1={b.y} y2={b.y + b.h} />
      ))}
    </g>
  );
}

/** Press or drag on any plot to move the cursor there; left out of the exports. */
export function Scrubbers({ boxes, xs, plotW, onCursor }: { boxes: PlotBox[]; xs: ScaleLinear<number, number>; plotW: number; onCursor: (t: number) => void }) {
  const move = (e: PointerEvent<SVGRectElement>) => {
    if (e.type === 'pointermove' && !e.buttons) return;
    const box = e.currentTarget.getBoundingClientRect();
    const [a, b] = xs.domain();
    onCursor(Math.min(b, Math.max(a, xs.invert(((e.clientX - box.left) / box.width) * plotW))));
  };
  return (
    <g className={NO_EXPORT}>
      {boxes.map((b) => (
        <rect
          key={b.key}
          className="overlay"
          x={b.x}
          y={b.y}
          width={plotW}
          height={b.h}
          fill="transparent"
          onPointerDown={(e) => {
            e.currentTarget.setPointerCapture(e.pointerId);
            move(e);
          }}
          onPointerMove={move}
        />
      ))}
    </g>
  );
}
