// "Copy embed code" on the full page: an <iframe> snippet (embed.ts) for the scenario in the
// editor and the view chosen in the select, copied to the clipboard and shown, so that it can
// be copied by hand where the clipboard is not available.

import { useId, useState } from 'react';
import { VIEWS, VIEW_NAMES, type View } from '../lessons/format';
import { DEFAULT_EMBED_SIZE, EMBED_SIZES, embedCode } from './embed';
import './embed.css';

export interface EmbedCodeProps {
  text: string;
  scenarioName: string;
  coreVersion: string;
  disabled: boolean;
}

export function EmbedCode({ text, scenarioName, coreVersion, disabled }: EmbedCodeProps) {
  const uid = useId();
  const [view, setView] = useState<View>('goodput');
  const [sizeId, setSizeId] = useState<string>(DEFAULT_EMBED_SIZE.id);
  const size = EMBED_SIZES.find((s) => s.id === sizeId) ?? DEFAULT_EMBED_SIZE;
  const [code, setCode] = useState<string | null>(null);
  const [copied, setCopied] = useState<string>('');
  const copy = async () => {
    const snippet = embedCode({ pageUrl: window.location.href, text, scenarioName, coreVersion, view, size });
    setCode(snippet);
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied('Embed code copied to the clipboard.');
    } catch {
      setCopied('The clipboard was not available: copy the code below.');
    }
  };
  return (
    <details className="embed-code" data-testid="embed-code">
      <summary>Embed</summary>
      <div className="embed-code-row">
        <label htmlFor={`${uid}-view`}>View</label>
        <select id={`${uid}-view`} value={view} onChange={(e) => setView(e.target.value as View)} data-testid="embed-view">
          {VIEW_NAMES.map((v) => (
            <option key={v} value={v}>
              {VIEWS[v].label.replace(/^the /, '')}
            </option>
          ))}
        </select>
        <label htmlFor={`${uid}-size`}>Size</label>
        <select id={`${uid}-size`} value={sizeId} onChange={(e) => setSizeId(e.target.value)} data-testid="embed-size">
          {EMBED_SIZES.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void copy()} disabled={disabled} data-testid="copy-embed">
          Copy embed code
        </button>
      </div>
      <p className="embed-code-status" role="status">
        {copied}
      </p>
      {code !== null && (
        <>
          <label htmlFor={`${uid}-code`}>Embed code</label>
          <textarea id={`${uid}-code`} className="embed-code-text" readOnly value={code} rows={4} data-testid="embed-code-text" onFocus={(e) => e.currentTarget.select()} />
        </>
      )}
    </details>
  );
}
