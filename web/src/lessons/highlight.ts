// Points at the view a lesson step is about (docs/lessons.md §7): the element with the view's
// `data-testid` gets an outline (the class `lesson-highlight`), an `aria-describedby` naming a
// note that says why, and is scrolled into view. The charts are drawn by other modules and
// redrawn after every run, so the mark is put on the element imperatively and put back
// whenever the page's result changes; a view that is not on the page yet (before the step's
// first run) is marked as soon as it appears.

import { useEffect, useRef } from 'react';
import { VIEWS, type View } from './format';

/** A request to point at a view; a new `seq` scrolls to it again (the step's "Show" button). */
export interface HighlightRequest {
  view: View;
  seq: number;
}

export const HIGHLIGHT_CLASS = 'lesson-highlight';

/** How long after scrolling to a view it is kept in view while the page settles. */
const SETTLE_MS = 3000;

/** A space-separated id list (`aria-describedby`) with `id` added once. */
export function addToken(list: string | null, id: string): string {
  const ids = (list ?? '').split(/\s+/).filter(Boolean);
  return ids.includes(id) ? ids.join(' ') : [...ids, id].join(' ');
}

/** The list without `id`; null when nothing is left (the attribute is then removed). */
export function removeToken(list: string | null, id: string): string | null {
  const ids = (list ?? '').split(/\s+/).filter((x) => x && x !== id);
  return ids.length ? ids.join(' ') : null;
}

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Puts the mark on `el`; returns what takes it off again. */
function mark(el: HTMLElement, noteId: string): () => void {
  el.classList.add(HIGHLIGHT_CLASS);
  el.setAttribute('aria-describedby', addToken(el.getAttribute('aria-describedby'), noteId));
  return () => {
    el.classList.remove(HIGHLIGHT_CLASS);
    const rest = removeToken(el.getAttribute('aria-describedby'), noteId);
    if (rest) el.setAttribute('aria-describedby', rest);
    else el.removeAttribute('aria-describedby');
  };
}

/**
 * Marks the requested view while `request` stands, following it when the page redraws it (a
 * new result, a chart remounted, the globe's lazy chunk arriving). `pageKey` changes with the
 * page's result; `noteId` is the element that says why the view is marked. Scrolls to the view
 * once per request and once per new result, so that a finished run shows the view the step is
 * about, and never on the redraws in between (the time cursor playing).
 */
export function useViewHighlight(request: HighlightRequest | null, pageKey: unknown, noteId: string) {
  const scrolledFor = useRef<{ seq: number; pageKey: unknown } | null>(null);
  useEffect(() => {
    if (!request) return;
    const selector = `[data-testid="${VIEWS[request.view].testid}"]`;
    const last = scrolledFor.current;
    let wantScroll = !last || last.seq !== request.seq || last.pageKey !== pageKey;
    let marked: HTMLElement | null = null;
    let unmark: (() => void) | null = null;
    const follow = () => {
      const el = document.querySelector<HTMLElement>(selector);
      if (el === marked) return;
      unmark?.();
      marked = el;
      unmark = el ? mark(el, noteId) : null;
      if (el && wantScroll) {
        wantScroll = false;
        scrolledFor.current = { seq: request.seq, pageKey };
        el.scrollIntoView({ block: 'nearest', behavior: reducedMotion() ? 'auto' : 'smooth' });
        settle(el);
      }
    };
    // What arrives just after the scroll (the globe's lazy chunk above a chart, a chart's fonts)
    // can push the view off the screen again: for a moment, the view is brought back each time
    // the page changes size.
    let settling: ResizeObserver | null = null;
    const settle = (el: HTMLElement) => {
      settling?.disconnect();
      if (typeof ResizeObserver !== 'function') return;
      const until = performance.now() + SETTLE_MS;
      settling = new ResizeObserver(() => {
        if (performance.now() > until) settling?.disconnect();
        else if (el.isConnected) el.scrollIntoView({ block: 'nearest' });
      });
      settling.observe(document.body);
    };
    follow();
    const observer = new MutationObserver(follow);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      settling?.disconnect();
      unmark?.();
    };
  }, [request, pageKey, noteId]);
}
