// A link's baseline (the `base=` parameter, share/urlState.ts): once the simulator is up, its
// scenario runs beside the page's own run and is pinned, so the link opens on the comparison
// its sender saw (runs are deterministic). Clearing the baseline takes it out of the address bar,
// so that Reload does not bring it back.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { readBaseline, withBaseline } from '../share/urlState';

export function useLinkedBaseline({
  coreVersion,
  runAside,
  pin,
  clear,
}: {
  coreVersion: string;
  runAside: (text: string) => Promise<RunResult>;
  pin: (result: RunResult, scenario: Scenario | null) => void;
  clear: () => void;
}) {
  const [linked] = useState(() => readBaseline(window.location.hash));
  const [state, setState] = useState<{ running: boolean; notice: string | null }>(() => ({
    running: linked?.ok === true,
    notice: linked?.ok === false ? linked.error : null,
  }));
  const started = useRef(false);

  useEffect(() => {
    if (!linked?.ok || !coreVersion || started.current) return;
    started.current = true;
    const text = linked.text;
    runAside(text)
      .then((result) => {
        pin(result, JSON.parse(text) as Scenario);
        setState({ running: false, notice: null });
      })
      .catch((e: Error) => setState({ running: false, notice: `This link's baseline could not be run: ${e.message}` }));
  }, [linked, coreVersion, runAside, pin]);

  const clearBaseline = useCallback(() => {
    clear();
    const url = new URL(window.location.href);
    const hash = withBaseline(url.hash.replace(/^#/, ''), null);
    if (hash !== url.hash.replace(/^#/, '')) {
      url.hash = hash;
      window.history.replaceState(window.history.state, '', url);
    }
  }, [clear]);
  const dismissNotice = useCallback(() => setState((s) => ({ ...s, notice: null })), []);
  return { running: state.running, notice: state.notice, dismissNotice, clear: clearBaseline };
}
