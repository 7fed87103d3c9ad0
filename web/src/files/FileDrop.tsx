// The editor as a drop target: a scenario file dropped on it opens as Open… does; a TLE file
// (or OMM records, a JSON list) goes into the constellation as "Satellites from TLE/OMM…" does.

import { useState, type DragEvent, type ReactNode } from 'react';

/** A dropped file's kind: element sets by extension or by being a JSON list. */
export function droppedKind(name: string, text: string): 'scenario' | 'elements' {
  if (/\.(tle|3le|txt)$/i.test(name)) return 'elements';
  return text.trimStart().startsWith('[') ? 'elements' : 'scenario';
}

export function FileDrop({
  children,
  onScenario,
  onElements,
  onFail,
}: {
  children: ReactNode;
  onScenario: (name: string, text: string) => void;
  onElements: (name: string, text: string) => void;
  onFail: (name: string, why: string) => void;
}) {
  const [over, setOver] = useState(false);
  const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer.types).includes('Files');
  return (
    <div
      className={over ? 'file-drop over' : 'file-drop'}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setOver(false);
        const file = e.dataTransfer.files[0];
        if (!file) return;
        file.text().then(
          (t) => (droppedKind(file.name, t) === 'elements' ? onElements : onScenario)(file.name, t),
          (err: unknown) => onFail(file.name, err instanceof Error ? err.message : String(err)),
        );
      }}
      data-testid="file-drop"
    >
      {children}
    </div>
  );
}
