// Labelled inputs of the scenario form. Each shows the core's errors for its path below itself
// (linked by aria-describedby, and aria-invalid on the input).
//
// Text-like inputs keep what the user typed while it still stands for the value in the
// scenario, so "0." or "" or "1e" never jumps while typing; when the scenario changes from
// elsewhere (the JSON view, a preset), they show the new value.

import { useId, useState, type ReactNode } from 'react';
import { formatValue, formatValueList, numberFromText, parseValueList, sameJson, type Json } from './model';

/** Errors as formErrors.ts words them: beside a field, what is wrong with it; away from any
 * field, with the path. */
export function FieldErrors({ id, errors }: { id?: string; errors: readonly string[] }) {
  if (errors.length === 0) return null;
  return (
    <ul className="field-errors" id={id}>
      {errors.map((e, i) => (
        <li key={i} title={e}>
          {e}
        </li>
      ))}
    </ul>
  );
}

interface FieldProps {
  label: string;
  /** Help shown as a tooltip and read by screen readers. */
  hint?: string;
  unit?: string;
  errors?: readonly string[];
  className?: string;
}

function Field({ id, label, hint, unit, errors = [], className, children }: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div className={`field${errors.length ? ' invalid' : ''}${className ? ` ${className}` : ''}`} title={hint}>
      <label htmlFor={id}>
        {label}
        {unit && <span className="unit"> ({unit})</span>}
      </label>
      {children}
      <FieldNotes id={id} hint={hint} errors={errors} />
    </div>
  );
}

/** What a field says below its input: its hint, for screen readers (the tooltip shows it to
 * the eye), and its errors. */
function FieldNotes({ id, hint, errors }: { id: string; hint?: string; errors: readonly string[] }) {
  return (
    <>
      {hint && (
        <span id={`${id}-hint`} className="visually-hidden">
          {hint}
        </span>
      )}
      <FieldErrors id={`${id}-errors`} errors={errors} />
    </>
  );
}

/** The input's ARIA attributes that point at its notes (`FieldNotes`) and mark it invalid. */
function ariaNotes(id: string, hint: string | undefined, errors: readonly string[]) {
  const ids = [errors.length ? `${id}-errors` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': errors.length > 0 || undefined, 'aria-describedby': ids || undefined };
}

interface TextInputProps extends FieldProps {
  value: unknown;
  /** The value to write for a text; `undefined` for "empty". */
  parse: (text: string) => Json | undefined;
  format: (value: unknown) => string;
  onChange: (value: Json | undefined) => void;
  /** A problem the form can see before the core does (the text is then not written). */
  check?: (text: string) => string | null;
  placeholder?: string;
  inputMode?: 'text' | 'decimal' | 'numeric';
  list?: string;
  wide?: boolean;
}

export function TextInput({ value, parse, format, onChange, check, placeholder, inputMode, list, wide, ...field }: TextInputProps) {
  const id = useId();
  const [raw, setRaw] = useState(() => format(value));
  const local = check?.(raw) ?? null;
  const shown = local !== null || sameJson(parse(raw), value) ? raw : format(value);
  const errors = local ? [`form: ${local}`, ...(field.errors ?? [])] : (field.errors ?? []);
  return (
    <Field id={id} {...field} errors={errors} className={wide ? 'wide' : undefined}>
      <input
        id={id}
        type="text"
        inputMode={inputMode}
        value={shown}
        placeholder={placeholder}
        list={list}
        spellCheck={false}
        autoComplete="off"
        {...ariaNotes(id, field.hint, errors)}
        onChange={(e) => {
          const text = e.target.value;
          setRaw(text);
          if (check?.(text)) return;
          onChange(parse(text));
        }}
      />
    </Field>
  );
}

type NumberProps = FieldProps & {
  value: unknown;
  /** What an empty input means: remove the field (it has a default) or write null (for a
   * required field the core then reports it; for a nullable one null is "none"). */
  empty: 'remove' | 'null';
  onChange: (value: Json | undefined) => void;
  integer?: boolean;
  placeholder?: string;
};

export function NumberInput({ empty, onChange, integer, ...rest }: NumberProps) {
  return (
    <TextInput
      {...rest}
      inputMode={integer ? 'numeric' : 'decimal'}
      parse={numberFromText}
      format={formatValue}
      onChange={(v) => onChange(v === undefined && empty === 'null' ? null : v)}
    />
  );
}

export function StringInput(props: FieldProps & { value: unknown; onChange: (value: Json | undefined) => void; placeholder?: string; wide?: boolean }) {
  return <TextInput {...props} parse={(t) => t} format={formatValue} />;
}

/** A comma-separated list of values: numbers, quoted or bare strings, JSON. */
export function ListInput(props: FieldProps & { value: unknown; onChange: (value: Json[]) => void; placeholder?: string; list?: string; wide?: boolean }) {
  const { onChange, ...rest } = props;
  return <TextInput {...rest} parse={parseValueList} format={formatValueList} onChange={(v) => onChange((v ?? []) as Json[])} />;
}

export interface Option {
  value: string;
  label: string;
}

export function SelectInput({ value, options, onChange, ...field }: FieldProps & { value: unknown; options: readonly Option[]; onChange: (value: string) => void }) {
  const id = useId();
  const errors = field.errors ?? [];
  const current = typeof value === 'string' ? value : formatValue(value);
  const known = options.some((o) => o.value === current);
  return (
    <Field id={id} {...field}>
      <select
        id={id}
        value={current}
        {...ariaNotes(id, field.hint, errors)}
        onChange={(e) => onChange(e.target.value)}
      >
        {!known && <option value={current}>{current === '' ? '(missing)' : `${current} (unknown)`}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function CheckInput({ value, fallback, onChange, label, hint, errors = [] }: FieldProps & { value: unknown; fallback: boolean; onChange: (value: boolean) => void }) {
  const id = useId();
  const checked = typeof value === 'boolean' ? value : fallback;
  return (
    <div className={`field check${errors.length ? ' invalid' : ''}`} title={hint}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        {...ariaNotes(id, hint, errors)}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      <FieldNotes id={id} hint={hint} errors={errors} />
    </div>
  );
}
