// While a lesson step's answer is not revealed, a chart's written numbers (which can state the
// answer: "Reno peaks at 152 packets at 61.9 s") are folded behind a summary the reader opens.
// A module of its own, so the page can provide it without loading the charts' chunk.

import { createContext } from 'react';

export const FoldChartNumbersContext = createContext(false);
