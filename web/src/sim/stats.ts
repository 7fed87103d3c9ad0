// Sample statistics for sweep charts, the same formulas as the core's sweep table
// (`wasm-core/src/metrics.rs`: `mean_std`, `ci95_half_width`), so a bar in the browser spans
// what the `_std` and `_ci95` columns of `orbitcp sweep --aggregate` say.

/** Mean and sample standard deviation (divisor n − 1; 0 for one value, NaN for none). */
export function meanStd(xs: number[]): { mean: number; std: number } {
  if (xs.length === 0) return { mean: NaN, std: NaN };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  if (xs.length < 2) return { mean, std: 0 };
  const v = xs.reduce((a, b) => a + (b - mean) * (b - mean), 0) / (xs.length - 1);
  return { mean, std: Math.sqrt(v) };
}

/** P(|T| < t) for Student's t with an integer `df` ≥ 1, by the finite series of Abramowitz and
 * Stegun 26.7.3 (odd df) and 26.7.4 (even df): exact up to rounding, with no gamma function. */
function centralProb(t: number, df: number): number {
  const theta = Math.atan(t / Math.sqrt(df));
  const c2 = Math.cos(theta) ** 2;
  const s = Math.sin(theta);
  if (df % 2 === 0) {
    let term = 1;
    let sum = 1;
    for (let k = 2; k <= df - 2; k += 2) {
      term *= (c2 * (k - 1)) / k;
      sum += term;
    }
    return s * sum;
  }
  if (df === 1) return (2 * theta) / Math.PI;
  let term = 1;
  let sum = 1;
  for (let k = 3; k <= df - 2; k += 2) {
    term *= (c2 * (k - 1)) / k;
    sum += term;
  }
  return (2 / Math.PI) * (theta + s * Math.cos(theta) * sum);
}

const t975Cache = new Map<number, number>();

/** The 0.975 quantile of Student's t with `df` degrees of freedom (an integer, at least 1):
 * the t with P(|T| < t) = 0.95, found by bisection. */
export function studentT975(df: number): number {
  const nu = Math.max(1, Math.floor(df));
  const cached = t975Cache.get(nu);
  if (cached !== undefined) return cached;
  // P(|T| < t) grows with t; t(0.975, 1) ≈ 12.7 is the largest quantile.
  let lo = 0;
  let hi = 64;
  for (let i = 0; i < 200; i++) {
    const mid = 0.5 * (lo + hi);
    if (mid === lo || mid === hi) break;
    if (centralProb(mid, nu) < 0.95) lo = mid;
    else hi = mid;
  }
  const t = 0.5 * (lo + hi);
  t975Cache.set(nu, t);
  return t;
}

/** Half-width of the two-sided 95 % confidence interval of the mean (`t(0.975, n − 1)·s/√n`);
 * NaN below two values, where it is undefined. */
export function ci95HalfWidth(xs: number[]): number {
  if (xs.length < 2) return NaN;
  const { std } = meanStd(xs);
  return (studentT975(xs.length - 1) * std) / Math.sqrt(xs.length);
}
