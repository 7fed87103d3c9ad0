// Zoom and pan on x with d3-zoom: wheel, drag and double-click on the plot's overlay, and
// methods for the buttons (keyboard users). Only x is rescaled (rescaleX), so y never zooms.
// The transform is kept here, never read back from d3-zoom's private state on the element.

import { useEffect, useRef, useState } from 'react';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import type { ChartRefs } from './refs';

/** The deepest zoom, as a factor of the whole x domain. */
export const MAX_ZOOM = 100_000;

/**
 * Whether the zoom behaviour takes an event at zoom factor `k`. Scrolling down over an unzoomed
 * chart scrolls the page instead of being swallowed; Ctrl (the browser's page zoom) and any
 * button but the main one are left to others.
 */
export function zoomAccepts(event: { type: string; deltaY?: number; ctrlKey?: boolean; button?: number }, k: number): boolean {
  if (event.type === 'wheel') return !(k <= 1 && (event.deltaY ?? 0) > 0) && !event.ctrlKey;
  return !event.ctrlKey && !event.button;
}

export interface Zoom {
  transform: ZoomTransform;
  /** Whether the view is zoomed in at all. */
  zoomed: boolean;
  zoomBy: (k: number) => void;
  /** Pans by a fraction of the view's width (negative: earlier). */
  panBy: (fraction: number) => void;
  reset: () => void;
}

export function useZoom(refs: ChartRefs, o: { enabled: boolean; width: number; height: number }): Zoom {
  const { enabled, width, height } = o;
  const [transform, setTransform] = useState<ZoomTransform>(zoomIdentity);
  /** The latest transform, ahead of the state (which follows at most once a frame). */
  const latest = useRef<ZoomTransform>(zoomIdentity);
  const behaviour = useRef<ZoomBehavior<SVGRectElement, unknown> | null>(null);

  useEffect(() => {
    const el = refs.overlay.current;
    if (!el || !enabled) return;
    let pending: ZoomTransform | null = null;
    let frame = 0;
    const z = zoom<SVGRectElement, unknown>()
      .scaleExtent([1, MAX_ZOOM])
      .extent([
        [0, 0],
        [width, height],
      ])
      .translateExtent([
        [0, -Infinity],
        [width, Infinity],
      ])
      .filter((event: WheelEvent | MouseEvent) => zoomAccepts(event as WheelEvent, latest.current.k))
      .on('zoom', (e: { transform: ZoomTransform }) => {
        latest.current = e.transform;
        // At most one render per frame: wheel and drag events can come faster than frames.
        pending = e.transform;
        if (frame === 0)
          frame = requestAnimationFrame(() => {
            frame = 0;
            if (pending) setTransform(pending);
          });
      });
    behaviour.current = z;
    const sel = select(el);
    sel.call(z);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      sel.on('.zoom', null);
    };
  }, [refs, enabled, width, height]);

  const drive = (f: (z: ZoomBehavior<SVGRectElement, unknown>, sel: ReturnType<typeof select<SVGRectElement, unknown>>) => void) => {
    const el = refs.overlay.current;
    if (el && behaviour.current) f(behaviour.current, select(el));
  };
  return {
    transform,
    zoomed: transform.k > 1.0001,
    zoomBy: (k) => drive((z, sel) => z.scaleBy(sel, k)),
    panBy: (fraction) => drive((z, sel) => z.translateBy(sel, (-fraction * width) / latest.current.k, 0)),
    reset: () => drive((z, sel) => z.transform(sel, zoomIdentity)),
  };
}
