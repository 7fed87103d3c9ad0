// The address bar follows the page, and the page follows the address bar (urlState.ts says what
// the fragment holds). A preset chosen or a run's results appearing is a new history entry;
// typing rewrites the current one once it pauses. Back, Forward and a link pasted into the tab
// (popstate, hashchange) put the fragment's scenario in the editor and, with `run=1`, run it
// again through the page's shared-link path (a costly run asks first). The lesson's parameters
// are useLessonUrl's; every write here keeps them.

import { useCallback, useEffect, useRef, useState } from 'react';
import {
  fragmentRun,
  historyMode,
  readFragment,
  resultIsOf,
  runsOnOpen,
  sameScreen,
  screenHash,
  versionNotice,
  withBaseline,
  type PageScreen,
  type PresetLookup,
} from './urlState';

/** Typing pauses this long before the address bar is rewritten. */
const TYPING_DEBOUNCE_MS = 300;

export interface UrlStateInput {
  text: string;
  presetId: string | undefined;
  coreVersion: string;
  /** The scenario of the result or sweep on the page, null without one. */
  resultScenario: unknown;
  /** A run is under way or about to start by itself (a link's, a lesson step's), or a cost
   * prompt waits: whether results will be on screen is not known yet. */
  pending: boolean;
  presets: PresetLookup;
  /** Puts a preset, or a text, in the editor. */
  pick: (presetId: string) => void;
  edit: (text: string) => void;
  /** Runs the editor's text once valid, as a shared link does. */
  runLink: () => void;
}

export interface UrlState {
  /** A link made by another core, or a link whose scenario could not be opened on navigation. */
  notice: string | null;
  dismissNotice: () => void;
  /** The link to this screen, with the scenario's text written out and the core's version, and
   * with `baseline` the scenario of the baseline to compare with (none: the link drops it). */
  shareUrl: (baseline?: string | null) => string;
}

function write(hash: string, mode: 'push' | 'replace') {
  const url = new URL(window.location.href);
  if (url.hash.replace(/^#/, '') === hash) return;
  url.hash = hash;
  if (mode === 'push') window.history.pushState(null, '', url);
  else window.history.replaceState(window.history.state, '', url);
}

export function useUrlState(input: UrlStateInput): UrlState {
  const { text, presetId, coreVersion, resultScenario, pending, presets } = input;
  const latest = useRef(input);
  latest.current = input;

  const [linkVersion, setLinkVersion] = useState(() => readFragment(window.location.hash, presets).version);
  const [navError, setNavError] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState(false);

  const shown = resultIsOf(resultScenario, text);
  // Until a pending run ends, the fragment's own `run=` stands.
  const run = shown || (pending && fragmentRun(window.location.hash));
  const page: PageScreen = { text, presetId, run };

  /** The screen the address bar holds, to tell a change from the last one. */
  const prev = useRef<PageScreen>(page);
  /** The next change comes from the URL (opening, Back, Forward): it is no new entry. */
  const fromUrl = useRef(runsOnOpen(window.location.hash));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const queued = useRef<PageScreen | null>(null);

  const flush = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    if (queued.current) write(screenHash(window.location.hash, queued.current, latest.current.coreVersion), 'replace');
    queued.current = null;
  }, []);

  useEffect(() => {
    const next: PageScreen = { text, presetId, run };
    const url = readFragment(window.location.hash, presets);
    if (sameScreen(url, next)) {
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
      queued.current = null;
    } else if (!fromUrl.current && historyMode(prev.current, next) === 'push') {
      flush();
      write(screenHash(window.location.hash, next, coreVersion), 'push');
    } else {
      queued.current = next;
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = setTimeout(flush, TYPING_DEBOUNCE_MS);
    }
    prev.current = next;
    if (!pending) fromUrl.current = false;
    // `presets` is a constant of the page; `coreVersion` is read when a write happens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, presetId, run, pending, flush]);

  // A pending rewrite is not lost when the page goes away.
  useEffect(() => {
    const onHide = () => flush();
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, [flush]);

  useEffect(() => {
    const onNavigate = () => {
      // What the user typed before leaving belongs to the entry left, which is already gone.
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
      queued.current = null;
      const cur = latest.current;
      const url = readFragment(window.location.hash, cur.presets);
      setLinkVersion(url.version);
      setDismissed(false);
      if (!url.scenario.ok) {
        setNavError(url.scenario.error);
        return;
      }
      setNavError(null);
      const { text: t, presetId: id } = url.scenario;
      const changes = t !== cur.text || id !== cur.presetId;
      const rerun = url.run && !resultIsOf(cur.resultScenario, t);
      if (!changes && !rerun) return;
      fromUrl.current = true;
      if (changes) {
        if (id !== undefined) cur.pick(id);
        else cur.edit(t);
      }
      if (rerun) cur.runLink();
    };
    // A pasted link fires both; the second finds nothing to do.
    window.addEventListener('popstate', onNavigate);
    window.addEventListener('hashchange', onNavigate);
    return () => {
      window.removeEventListener('popstate', onNavigate);
      window.removeEventListener('hashchange', onNavigate);
    };
  }, []);

  const shareUrl = useCallback((baseline: string | null = null) => {
    flush();
    const cur = latest.current;
    const screen = screenHash(window.location.hash, { text: cur.text, presetId: cur.presetId, run: resultIsOf(cur.resultScenario, cur.text) }, cur.coreVersion, true);
    const hash = withBaseline(screen, baseline);
    write(hash, 'replace');
    return window.location.href;
  }, [flush]);

  const notice = navError ?? (dismissed ? null : versionNotice(linkVersion, coreVersion));
  const dismissNotice = useCallback(() => {
    setNavError(null);
    setDismissed(true);
  }, []);
  return { notice, dismissNotice, shareUrl };
}
