// The globe: a thin React wrapper around GlobeScene (scene.ts). React renders the controls once;
// the scene, the scrub bar and the clock read-out are driven imperatively from the shared time
// cursor, so neither playing nor scrubbing re-renders anything. Loaded lazily (ResultsPane.tsx): three.js,
// satellite.js and the world atlas are a separate chunk that only constellation scenarios fetch.

import { useEffect, useRef, useState } from 'react';
import type { PathTimeline } from '../sim/results';
import type { TimeCursor } from '../timeCursor';
import { REFERENCE_EPOCH_UTC } from './propagate';
import { GlobeScene } from './scene';
import { slotText, type ConstellationView } from './view';
import './globe.css';

const SPEEDS = [1, 10, 100, 1000];

export interface GlobeProps {
  view: ConstellationView;
  /** The run's path timeline: the route drawn at each time. */
  path?: PathTimeline;
  /** Simulation seconds the scrub bar and the play clock cover. */
  durationS: number;
  cursor: TimeCursor;
}

function clock(scene: GlobeScene, t: number): string {
  const iso = new Date(scene.dateAt(t)).toISOString().replace('T', ' ').slice(0, 19);
  return `t = ${t.toFixed(1)} s · ${iso} UTC`;
}

export default function Globe({ view, path, durationS, cursor }: GlobeProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const infoRef = useRef<HTMLDivElement>(null);
  const scrubRef = useRef<HTMLInputElement>(null);
  const clockRef = useRef<HTMLOutputElement>(null);
  const slotRef = useRef<HTMLOutputElement>(null);
  const sceneRef = useRef<GlobeScene | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(10);
  const [isls, setIsls] = useState(false);
  const [tracks, setTracks] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  // The scene lives as long as the component; a new view replaces its layers (disposing the old).
  useEffect(() => {
    const host = hostRef.current;
    const info = infoRef.current;
    if (!host || !info) return;
    let scene: GlobeScene;
    try {
      scene = new GlobeScene(host, info, {
        onTime: (t) => cursor.set(t, 'globe'),
        onEnded: () => setPlaying(false),
      });
    } catch (e) {
      setFailure(`The globe needs WebGL, which this browser did not provide (${e instanceof Error ? e.message : String(e)}).`);
      return;
    }
    sceneRef.current = scene;
    // Tools and tests reach the scene through the DOM node (no global state).
    (host as HTMLDivElement & { globeScene?: GlobeScene }).globeScene = scene;
    return () => {
      sceneRef.current = null;
      delete (host as HTMLDivElement & { globeScene?: GlobeScene }).globeScene;
      scene.dispose();
    };
  }, [cursor]);

  useEffect(() => {
    const scene = sceneRef.current;
    if (!scene) return;
    scene.setView(view);
    scene.setTime(cursor.get());
    hostRef.current!.dataset.satellites = String(view.satellites.length);
  }, [view, cursor]);

  useEffect(() => sceneRef.current?.setPath(path), [path]);

  // The cursor drives the scene, the scrub bar, the clock and the slot read-out, whoever moved it.
  const slots = path?.slot_boundaries_s;
  useEffect(() => {
    const scene = sceneRef.current;
    if (!scene) return;
    scene.setDuration(durationS);
    const show = (t: number, source?: string) => {
      if (source !== 'globe') scene.setTime(t);
      if (scrubRef.current) scrubRef.current.value = String(t);
      if (clockRef.current) clockRef.current.textContent = clock(scene, t);
      if (slotRef.current && slots?.length) slotRef.current.textContent = slotText(slots, t);
    };
    show(cursor.get());
    return cursor.subscribe(show);
  }, [cursor, durationS, view, slots]);

  useEffect(() => sceneRef.current?.setPlaying(playing), [playing]);
  useEffect(() => sceneRef.current?.setSpeed(speed), [speed]);
  useEffect(() => sceneRef.current?.setIslsVisible(isls), [isls, view]);
  useEffect(() => sceneRef.current?.setTracksVisible(tracks), [tracks, view]);

  const gateways = view.ground.some((g) => g.role === 'gateway' || g.role === 'pop');
  const epochNote = view.epoch_utc
    ? `Orbit time 0 is ${view.epoch_utc}, the latest epoch of the element sets; the Sun is placed for that date.`
    : `This constellation has no element sets, so it has no date: the day/night terminator uses a fixed reference date, ${REFERENCE_EPOCH_UTC} at orbit time 0.`;

  return (
    <section className="globe" aria-label="Constellation globe" data-testid="globe">
      {failure ? (
        <p className="notice">{failure}</p>
      ) : (
        <div className="globe-stage">
          <div className="globe-canvas" ref={hostRef} data-testid="globe-canvas" />
          <div className="globe-info" ref={infoRef} data-testid="globe-info" hidden aria-live="polite" />
        </div>
      )}
      <div className="globe-controls" role="group" aria-label="Globe time controls">
        <button type="button" onClick={() => setPlaying((p) => !p)} data-testid="globe-play" aria-pressed={playing}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <label>
          speed{' '}
          <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))} data-testid="globe-speed">
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <input
          ref={scrubRef}
          className="globe-scrub"
          type="range"
          min={0}
          max={durationS}
          step="any"
          defaultValue={0}
          aria-label="Simulation time"
          data-testid="globe-scrub"
          onInput={(e) => cursor.set(Number((e.target as HTMLInputElement).value), 'app')}
        />
        <output ref={clockRef} className="globe-clock" title={epochNote} data-testid="globe-clock" />
        {slots?.length ? (
          <output
            ref={slotRef}
            className="globe-slot"
            title="Starlink's scheduler reassigns the terminal to a satellite only at slot boundaries; the route's ground–satellite links flash white as the time crosses one."
            data-testid="globe-slot"
          />
        ) : null}
        <label>
          <input type="checkbox" checked={isls} onChange={(e) => setIsls(e.target.checked)} disabled={view.isl.length === 0} data-testid="globe-isls" /> ISLs
        </label>
        <label>
          <input type="checkbox" checked={tracks} onChange={(e) => setTracks(e.target.checked)} data-testid="globe-tracks" /> orbit tracks
        </label>
      </div>
      <p className="globe-legend">
        {view.satellites.length === 1 ? '1 satellite' : `${view.satellites.length.toLocaleString('en')} satellites, coloured by plane`}; <span className="swatch src" /> source, <span className="swatch dst" /> destination
        {gateways && (
          <>
            , <span className="swatch gateway" /> gateways, <span className="swatch pop" /> point of presence
          </>
        )}
        {path ? (
          <>
            ; the route: <span className="swatch gsl" /> ground–satellite links, <span className="swatch isl" /> inter-satellite links
            {gateways && (
              <>
                , <span className="swatch fibre" /> terrestrial fibre
              </>
            )}
          </>
        ) : (
          '; run the scenario to see its route'
        )}
        . Drag to turn, scroll to zoom, point at a satellite or station for its details.
      </p>
    </section>
  );
}
