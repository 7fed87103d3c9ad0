// Results so far of a run under way: the page asks for one when it can draw it, and spends at
// most a share of the run's time on them. client.ts asks the workers through this.

/** The page asks a run for its first result so far after this long (a short run ends first)... */
const PARTIAL_AFTER_MS = 1000;
/** ...then at most this often... */
const PARTIAL_EVERY_MS = 500;
/** ...and spends on them at most a tenth of the run's time: the worker writing its result, the
 * core joining the simulations', the page reading and drawing it. The LEO preset's results so
 * far are 2 MB of traces; sent twice a second, they kept the page's thread busy most of the run,
 * on a machine whose two cores also ran the simulations, and the run took a quarter longer. */
const PAGE_PARTIAL_SHARE = 10;

/** When the page may ask for the next result so far: the time the last one took, from asking to
 * drawn, times `share`, after it was drawn, and never sooner than `gapMs` after it. */
export class PartialPacer {
  private nextAt = -Infinity;

  constructor(
    private readonly gapMs = PARTIAL_EVERY_MS,
    private readonly share = PAGE_PARTIAL_SHARE,
    private readonly now = () => performance.now(),
  ) {}

  /** The result asked for at `askedAt` has been drawn (or could not be). */
  done(askedAt: number): void {
    const end = this.now();
    this.nextAt = end + Math.max(this.gapMs, (end - askedAt) * this.share);
  }

  /** How long until the next may be asked for. */
  waitMs(): number {
    return Math.max(0, this.nextAt - this.now());
  }
}

/** Results so far for a run under way, pulled: `ask` asks the worker(s) (false when there was no
 * one to ask), the first time after `PARTIAL_AFTER_MS`; each answer is drawn by `answered`, and the
 * next asked for when the `PartialPacer` allows. One at a time, until `stop`. */
export class PartialAsking {
  private readonly pacer: PartialPacer;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private askedAt = 0;
  private stopped = false;

  constructor(
    private readonly ask: () => boolean | void,
    pacer = new PartialPacer(),
    private readonly now = () => performance.now(),
  ) {
    this.pacer = pacer;
    this.later(PARTIAL_AFTER_MS);
  }

  private later(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.stopped) return;
      this.askedAt = this.now();
      if (this.ask() === false) this.later(PARTIAL_EVERY_MS);
    }, ms);
  }

  /** The answer to the last ask: `draw` it (false when it drew nothing, and the next is asked for
   * sooner), then ask for the next. */
  async answered(draw: () => boolean | void | Promise<boolean | void>): Promise<void> {
    let drew: boolean | void = false;
    try {
      drew = await draw();
      if (drew !== false) await afterRender();
    } finally {
      if (drew === false) this.later(PARTIAL_EVERY_MS);
      else {
        this.pacer.done(this.askedAt);
        this.later(this.pacer.waitMs());
      }
    }
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}

/** Resolves once the page has drawn what was dispatched before it (Preact renders from a
 * microtask; layout and paint follow in the next frame and are not counted). */
const afterRender = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
