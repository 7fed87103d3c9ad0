// The frame every chart sits in: a heading, the chart's own controls, "SVG" and "PNG" export
// buttons, the chart (given its measured width) and a text summary for screen readers and for
// anyone who wants the numbers.

import { useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { FoldChartNumbersContext } from './foldNumbers';
import { downloadPng, downloadSvg } from './exportChart';
import './charts.css';

/** The content width of the element `ref` points at, kept up to date with a ResizeObserver. */
export function useWidth(ref: React.RefObject<HTMLElement | null>, fallback = 640): number {
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const w = Math.floor(el.clientWidth);
      if (w > 0) setWidth((old) => (Math.abs(old - w) >= 1 ? w : old));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

export interface ChartFrameProps {
  testid: string;
  title: string;
  /** Base of the exported file names. */
  exportName: string;
  /** One or more sentences that say what the chart shows. */
  summary: ReactNode;
  /** Chart-specific controls (toggles, selects), shown beside the export buttons. */
  controls?: ReactNode;
  wide?: boolean;
  /** The paper's statements about the chart (PaperClaims), between the chart and the summary. */
  paper?: ReactNode;
  children: (width: number) => ReactNode;
  /** For a chart that draws only what is in view: calls `use` once the whole drawing is in the
   * page, for an export to serialize. */
  wholeDrawing?: (use: () => void) => void;
}

export function ChartFrame({ testid, title, exportName, summary, controls, wide, paper, children, wholeDrawing }: ChartFrameProps) {
  const bodyRef = useRef<HTMLDivElement>(null);
  const width = useWidth(bodyRef);
  const titleId = useId();
  const [error, setError] = useState<string | null>(null);
  const svg = () => bodyRef.current?.querySelector<SVGSVGElement>('svg.chart-svg') ?? null;
  const foldNumbers = useContext(FoldChartNumbersContext);
  const whole = wholeDrawing ?? ((use: () => void) => use());
  const exportSvg = () =>
    whole(() => {
      const s = svg();
      if (s) downloadSvg(s, exportName);
    });
  const exportPng = () =>
    whole(() => {
      const s = svg();
      if (s)
        downloadPng(s, exportName).then(
          () => setError(null),
          (e: Error) => setError(`PNG export failed: ${e.message}`),
        );
    });
  return (
    <figure className={`chart${wide ? ' chart-wide' : ''}`} data-testid={testid} aria-labelledby={titleId}>
      <div className="chart-head">
        <h3 id={titleId}>{title}</h3>
        <div className="chart-tools">
          {controls}
          <ExportButton title={title} format="SVG" onClick={exportSvg} />
          <ExportButton title={title} format="PNG" onClick={exportPng} />
        </div>
      </div>
      <div className="chart-body" ref={bodyRef}>
        {children(width)}
      </div>
      {paper}
      {error && (
        <p className="chart-error" role="alert">
          {error}
        </p>
      )}
      {foldNumbers ? (
        <figcaption className="chart-summary">
          <details data-testid="chart-summary-fold">
            <summary>The chart's numbers (they may answer the lesson's question)</summary>
            <span data-testid="chart-summary">{summary}</span>
          </details>
        </figcaption>
      ) : (
        <figcaption className="chart-summary" data-testid="chart-summary">
          {summary}
        </figcaption>
      )}
    </figure>
  );
}

/** A button that downloads the chart as `format`. */
function ExportButton({ title, format, onClick }: { title: string; format: 'SVG' | 'PNG'; onClick: () => void }) {
  return (
    <button type="button" className="small" aria-label={`Download the ${title} chart as ${format}`} data-testid={`export-${format.toLowerCase()}`} onClick={onClick}>
      {format}
    </button>
  );
}
