// PLACEHOLDER (being replaced by the real exports).
import type { RunResult } from '../sim/results';
export function downloadText(name: string, text: string, mime: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: mime }));
  a.download = name;
  a.click();
}
export function resultCsv(r: RunResult): string {
  return JSON.stringify(r.summary);
}
