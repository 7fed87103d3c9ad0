import { describe, expect, it } from 'vitest';
import { FRAME_CHROME_PX, MIN_FITTED_PLOT_PX, fittedPlotHeight } from './fit';

describe('a chart fitted to its frame', () => {
  it('keeps its own plot height on the full page', () => {
    expect(fittedPlotHeight(260, 120, null)).toBe(260);
  });

  it('gives the plot what the frame has left after the rest of the chart', () => {
    expect(fittedPlotHeight(260, 120, 350)).toBe(350 - 120 - FRAME_CHROME_PX);
    expect(fittedPlotHeight(260, 120, 2000)).toBe(260);
  });

  it('never shrinks a plot below the height at which it still says something', () => {
    expect(fittedPlotHeight(260, 120, 150)).toBe(MIN_FITTED_PLOT_PX);
  });
});
