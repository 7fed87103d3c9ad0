// The preset gallery: one button per scenario in scenarios/, with what it shows (the first
// sentence of its description) and the paper figure or table it reproduces (`paper.source`).
// A collapsible, scrollable list, so the editor below stays in view.

import { useEffect, useId, useRef, useState } from 'react';
import type { Preset } from '../scenario/presets';
import { firstSentence } from './model';
import './editor.css';

export function Gallery({ presets, selectedId, onPick }: { presets: Preset[]; selectedId?: string; onPick: (p: Preset) => void }) {
  const [open, setOpen] = useState(true);
  const uid = useId();
  const selected = presets.find((p) => p.id === selectedId);
  const list = useRef<HTMLUListElement>(null);

  // Keep the selected preset in view (a preset from a link may be far down the list), scrolling
  // only the list, never the page.
  useEffect(() => {
    const ul = list.current;
    const li = ul?.querySelector<HTMLElement>('[aria-pressed="true"]')?.parentElement;
    if (!ul || !li) return;
    const top = li.offsetTop; // the list is the offset parent (position: relative)
    if (top < ul.scrollTop || top + li.offsetHeight > ul.scrollTop + ul.clientHeight) ul.scrollTop = top - 4;
  }, [selectedId, open]);
  return (
    <section className="gallery" aria-labelledby={`${uid}-title`}>
      <div className="gallery-head">
        <h2 id={`${uid}-title`}>Presets</h2>
        <button type="button" className="link-button" aria-expanded={open} aria-controls={`${uid}-list`} onClick={() => setOpen(!open)}>
          {open ? 'Hide' : `Show all ${presets.length}`}
        </button>
        {!open && (
          <span className="gallery-current" title={selected?.scenario.name}>
            {selected ? selected.scenario.name : 'Edited scenario'}
          </span>
        )}
      </div>
      <ul ref={list} id={`${uid}-list`} className="gallery-list" hidden={!open} data-testid="gallery">
        {presets.map((p) => {
          const isSelected = p.id === selectedId;
          const source = p.scenario.paper?.source;
          const line = firstSentence(p.scenario.description ?? '');
          return (
            <li key={p.id}>
              <button type="button" className="preset" aria-pressed={isSelected} onClick={() => onPick(p)} data-testid={`preset-${p.id}`} data-preset={p.id}>
                <span className="preset-name">{p.scenario.name}</span>
                {line && (
                  <span className="preset-line" title={line}>
                    {line}
                  </span>
                )}
                {source && <span className="preset-source">Reproduces {source}</span>}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
