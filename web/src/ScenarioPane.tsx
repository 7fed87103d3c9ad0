// The scenario as the user edits it: the preset gallery, the autosaved draft's notice, the file
// bar (open, save, orbital elements) and the editor, onto which a scenario or elements file can
// be dropped. The form's sliders run the scenario live when it is cheap (useLiveSlider.ts).

import { Gallery } from './editor/Gallery';
import { ScenarioEditor } from './editor/ScenarioEditor';
import { LiveSliderContext, type LiveSlider } from './editor/slider';
import { DraftNotice } from './files/DraftNotice';
import { FileBar } from './files/FileBar';
import { FileDrop } from './files/FileDrop';
import type { useScenarioFiles } from './files/useScenarioFiles';
import { PRESETS, type Preset } from './scenario/presets';
import type { Scenario } from './scenario/types.gen';
import type { FieldError } from './sim/protocol';

export function ScenarioPane({
  text,
  scenario,
  errors,
  presetId,
  files,
  slider,
  onPick,
  onEdit,
}: {
  text: string;
  /** The text parsed, or null while it is not JSON. */
  scenario: Scenario | null;
  errors: FieldError[];
  presetId: string | undefined;
  files: ReturnType<typeof useScenarioFiles>;
  slider: LiveSlider | null;
  onPick: (preset: Preset) => void;
  onEdit: (text: string) => void;
}) {
  return (
    <>
      <Gallery presets={PRESETS} selectedId={presetId} onPick={onPick} />
      {files.draftNotice && (
        <DraftNotice notice={files.draftNotice} onDiscard={files.discardDraft} onRestore={files.restoreDraft} onDismiss={files.dismissDraftNotice} />
      )}
      <FileBar
        constellation={scenario?.topology?.kind === 'constellation'}
        dirty={files.dirty}
        message={files.message}
        draftFailed={files.draftFailed}
        onOpen={files.openText}
        onSave={files.save}
        onElements={files.loadElements}
        onFail={files.fileFailed}
        onDismiss={files.dismissMessage}
      />
      <FileDrop onScenario={files.openText} onElements={files.loadElements} onFail={files.fileFailed}>
        <LiveSliderContext.Provider value={slider}>
          <ScenarioEditor text={text} errors={errors} onChange={onEdit} />
        </LiveSliderContext.Provider>
      </FileDrop>
    </>
  );
}
