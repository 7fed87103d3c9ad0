// PLACEHOLDER (being replaced by the real editor).
export function ScenarioEditor({ text, errors, onChange }: { text: string; errors: string[]; onChange: (text: string) => void }) {
  return (
    <div>
      <label htmlFor="scenario-json">Scenario (JSON)</label>
      <textarea id="scenario-json" value={text} onChange={(e) => onChange(e.target.value)} rows={30} style={{ width: '100%' }} />
      <ul>{errors.map((e) => <li key={e}>{e}</li>)}</ul>
    </div>
  );
}
