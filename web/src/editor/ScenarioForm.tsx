// The form view: the common fields of a scenario, bound to the parsed JSON.
//
// Every change edits a fresh parse of the current text in place and writes it back, so fields
// the form does not show (description, trace, paper, ...) stay as they are. Field names and
// enumerations come from the generated types (types.gen.ts); ranges are checked by the core,
// whose errors arrive in `errors`. They are assigned to the form's places before anything
// renders (formErrors.ts over the places formPlaces.ts lists): each goes to the most specific
// field or group on screen that holds its path, and the rest to the top of the form. The
// sections are files of their own: FormLinks.tsx, FormConstellation.tsx, FormFlows.tsx and
// FormSweep.tsx. The help texts follow scenarios/README.md.

import { useMemo } from 'react';
import { FieldErrors, StringInput } from './fields';
import { assignErrors, FormErrors } from './formErrors';
import { formPlaces, isConstellation, sweepAxes } from './formPlaces';
import { makeKit, type Edit, type Kit } from './formKit';
import { LinkFields } from './FormLinks';
import { ConstellationFields } from './FormConstellation';
import { FlowFields } from './FormFlows';
import { SweepFields } from './FormSweep';
import type { FieldError } from '../sim/protocol';
import type { JsonObject } from './model';

export type { Edit } from './formKit';

interface FormProps {
  scenario: JsonObject;
  errors: readonly FieldError[];
  edit: Edit;
}

export function ScenarioForm({ scenario, errors, edit }: FormProps) {
  const assigned = useMemo(() => new FormErrors(assignErrors(errors, formPlaces(scenario), sweepAxes(scenario))), [errors, scenario]);
  return <FormSections kit={makeKit(scenario, assigned, edit)} />;
}

/** The form's sections for a kit; formPlaces.test.ts renders it with errors that record which
 * places the form reads. */
export function FormSections({ kit }: { kit: Kit }) {
  const { get, set, num, errors } = kit;
  const constellation = isConstellation(kit.scenario);
  return (
    <div className="scenario-form">
      {errors.general.length > 0 && (
        <div className="form-errors" role="group" aria-label="Scenario errors">
          <FieldErrors errors={errors.general} />
        </div>
      )}
      <div className="grid">
        <StringInput label="Name" wide value={get('name')} errors={errors.at('name')} onChange={(v) => set('name')(v ?? '')} />
        {num('duration_s', 'Duration', { unit: 's', hint: 'Simulated time limit; unfinished flows are reported as incomplete.' })}
        {num('seed', 'Seed', { integer: true, empty: 'remove', placeholder: '1', hint: 'Seed of every random stream in the run (loss, jitter).' })}
      </div>
      <section aria-labelledby="form-links">
        <h3 id="form-links">{constellation ? 'Path' : 'Links'}</h3>
        <FieldErrors errors={errors.at('topology')} />
        {constellation ? <ConstellationFields kit={kit} /> : <LinkFields kit={kit} />}
      </section>
      <section aria-labelledby="form-flows">
        <h3 id="form-flows">Flows</h3>
        <FieldErrors errors={errors.at('flows')} />
        <FlowFields kit={kit} />
      </section>
      <section aria-labelledby="form-sweep">
        <h3 id="form-sweep">Sweep</h3>
        <SweepFields kit={kit} />
      </section>
    </div>
  );
}
