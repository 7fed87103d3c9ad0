// The scenario editor: a form of the common fields and the full JSON text, two views of the one
// text App owns. Both write through `onChange`, so they never disagree; the core's validation
// errors come back in `errors` and are shown next to the fields whose paths they name.
//
// The JSON view is a plain <textarea>, not a code-editor component (CodeMirror, Monaco, ...):
// - no dependency: CodeMirror 6 with JSON support adds ~150 KB to a bundle whose point is the
//   simulator, Monaco several MB;
// - fast: scenarios are a few KB, and a textarea handles that with no work at all;
// - accessible for free: a native labelled control that screen readers, browser find, undo,
//   spell-check-off, zoom and mobile keyboards all understand, and Tab still leaves it (no
//   keyboard trap, which code editors need special handling for);
// - errors are what matters, and the core gives them with paths: they are listed under the
//   text (JSON syntax errors with their line and column and a button that puts the cursor
//   there), and the form view puts each next to its field.

import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { FieldErrors } from './fields';
import { errorText, isObject, lineColumn, parseJson, stringifyJson } from './model';
import type { FieldError } from '../sim/protocol';
import { ScenarioForm, type Edit } from './ScenarioForm';
import './editor.css';

type View = 'form' | 'json';
const VIEWS: { id: View; label: string }[] = [
  { id: 'form', label: 'Form' },
  { id: 'json', label: 'JSON' },
];

export function ScenarioEditor({ text, errors, onChange }: { text: string; errors: FieldError[]; onChange: (text: string) => void }) {
  const [view, setView] = useState<View>('form');
  const textarea = useRef<HTMLTextAreaElement>(null);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const uid = useId();
  const parsed = useMemo(() => parseJson(text), [text]);
  const scenario = parsed.ok && isObject(parsed.value) ? parsed.value : null;
  // The core reports a syntax error too; the editor's own message says where it is.
  const coreErrors = parsed.ok ? errors : errors.filter((e) => !(e.path === '' && e.message.startsWith('invalid JSON')));

  const edit: Edit = (mutate) => {
    const fresh = parseJson(text);
    if (!fresh.ok || !isObject(fresh.value)) return;
    mutate(fresh.value);
    onChange(stringifyJson(fresh.value));
  };

  const showJson = (offset?: number) => {
    setView('json');
    // The textarea mounts with the JSON view; put the cursor at the error once it has.
    requestAnimationFrame(() => {
      const ta = textarea.current;
      if (!ta) return;
      ta.focus();
      if (offset !== undefined) {
        ta.setSelectionRange(offset, Math.min(text.length, offset + 1));
        const { line } = lineColumn(text, offset);
        const lineHeight = parseFloat(getComputedStyle(ta).lineHeight) || 18;
        ta.scrollTop = Math.max(0, (line - 4) * lineHeight);
      }
    });
  };

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: VIEWS.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const i = (next + VIEWS.length) % VIEWS.length;
    setView(VIEWS[i].id);
    tabs.current[i]?.focus();
  };

  const syntax = !parsed.ok ? parsed : null;
  const where = syntax?.offset !== undefined ? lineColumn(text, syntax.offset) : null;
  const syntaxMessage = syntax && `The JSON text is not valid${where ? ` at line ${where.line}, column ${where.column}` : ''}: ${engineMessage(syntax.error)}`;

  return (
    // A plain div, not a second region: App's column is already the "Scenario" landmark.
    <div className="scenario-editor">
      <div className="editor-head">
        <h2 id={`${uid}-title`}>Scenario</h2>
        <div role="tablist" aria-label="Editor view" className="tabs">
          {VIEWS.map((v, i) => (
            <button
              key={v.id}
              ref={(el) => void (tabs.current[i] = el)}
              type="button"
              role="tab"
              id={`${uid}-tab-${v.id}`}
              aria-selected={view === v.id}
              aria-controls={`${uid}-panel-${v.id}`}
              tabIndex={view === v.id ? 0 : -1}
              onClick={() => setView(v.id)}
              onKeyDown={(e) => onTabKey(e, i)}
              data-testid={`editor-tab-${v.id}`}
            >
              {v.label}
            </button>
          ))}
        </div>
        {coreErrors.length > 0 && (
          <span className="error-count" data-testid="editor-error-count">
            {coreErrors.length} error{coreErrors.length > 1 ? 's' : ''}
          </span>
        )}
      </div>

      {/* Both panels stay mounted (the inactive one hidden), so the form keeps what is being
          typed across a switch and every tab's aria-controls names an element. */}
      <div role="tabpanel" id={`${uid}-panel-form`} aria-labelledby={`${uid}-tab-form`} className="panel" hidden={view !== 'form'} data-testid="editor-form">
        {scenario ? (
          <ScenarioForm scenario={scenario} errors={coreErrors} edit={edit} />
        ) : (
          <div className="form-errors" role="alert">
            <p>
              {syntaxMessage ?? 'The scenario must be a JSON object ({ ... }).'} The form can show it again once the text is fixed.
            </p>
            <button type="button" onClick={() => showJson(syntax?.offset)}>
              Fix it in the JSON view
            </button>
          </div>
        )}
      </div>

      <div role="tabpanel" id={`${uid}-panel-json`} aria-labelledby={`${uid}-tab-json`} className="panel json-view" hidden={view !== 'json'} data-testid="editor-json">
        <div className="json-head">
          <label htmlFor="scenario-json">Scenario as JSON</label>
          <button type="button" className="small" disabled={!parsed.ok} onClick={() => parsed.ok && onChange(stringifyJson(parsed.value))}>
            Format
          </button>
        </div>
        <textarea
          id="scenario-json"
          ref={textarea}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          rows={26}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          wrap="off"
          aria-invalid={!!syntax || coreErrors.length > 0 || undefined}
          aria-describedby={`${uid}-json-errors`}
        />
        <div id={`${uid}-json-errors`} className="json-errors">
          {syntaxMessage && (
            <div className="form-errors">
              <p>{syntaxMessage}</p>
              {syntax?.offset !== undefined && (
                <button type="button" className="small" onClick={() => showJson(syntax.offset)}>
                  Go to the error
                </button>
              )}
            </div>
          )}
          {coreErrors.length > 0 && (
            <div className="form-errors">
              <FieldErrors errors={coreErrors.map(errorText)} />
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

/** A JSON.parse message without the engine's own position (the editor gives line and column)
 * and with a full stop. */
function engineMessage(message: string): string {
  const m = message
    .replace(/,? in JSON at position \d+( \(line \d+ column \d+\))?/, '')
    .replace(/ at line \d+ column \d+ of the JSON data/, '')
    .replace(/, ".*" is not valid JSON$/s, '')
    .replace(/^JSON\.parse: /, '')
    .trim();
  return /[.!?]$/.test(m) ? m : `${m}.`;
}
