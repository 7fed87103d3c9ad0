// One CSV cell writer for every export (the run's traces, a sweep's rows), matching the CLI's.

/** First characters that make a spreadsheet read a text cell as a formula (OWASP, "CSV
 * Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell: numbers as they are; text quoted when it holds a comma, quote or line break, and
 * prefixed with `'` when it would start a formula, so that a scenario's names and labels cannot
 * run anything in the spreadsheet that opens the file. */
export function csvField(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  let s = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
  if (typeof v === 'string' && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
