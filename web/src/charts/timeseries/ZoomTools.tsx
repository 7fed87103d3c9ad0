// The zoom buttons under a chart (the keyboard's way to zoom and pan) and the range in view.

import { fmt } from '../palette';
import type { Zoom } from './useZoom';

export function ZoomTools({ title, zoom, domain, xName, xUnit }: { title: string; zoom: Zoom; domain: number[]; xName: string; xUnit: string }) {
  const { zoomed } = zoom;
  return (
    <div className="zoom-tools" role="group" aria-label={`Zoom the ${title} chart in time`}>
      <button type="button" className="small" onClick={() => zoom.zoomBy(2)} aria-label={`Zoom in on the ${title} chart`}>
        Zoom in
      </button>
      <button type="button" className="small" onClick={() => zoom.zoomBy(0.5)} disabled={!zoomed} aria-label={`Zoom out of the ${title} chart`}>
        Zoom out
      </button>
      <button type="button" className="small" onClick={() => zoom.panBy(-0.25)} disabled={!zoomed} aria-label={`Pan the ${title} chart earlier`}>
        ◀ Earlier
      </button>
      <button type="button" className="small" onClick={() => zoom.panBy(0.25)} disabled={!zoomed} aria-label={`Pan the ${title} chart later`}>
        Later ▶
      </button>
      <button type="button" className="small" onClick={zoom.reset} disabled={!zoomed} aria-label={`Reset the zoom of the ${title} chart`}>
        Reset
      </button>
      <span className="zoom-range">
        {xName} {fmt(domain[0], 4)} – {fmt(domain[1], 4)} {xUnit}
        {zoomed ? ` (×${fmt(zoom.transform.k, 3)})` : ''}
      </span>
    </div>
  );
}
