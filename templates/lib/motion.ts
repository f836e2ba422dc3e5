// A pause switch for each part of the page that moves on its own (the rotating headline, the logo marquee),
// so a visitor can stop either from its own control (WCAG 2.2.2); each control is named for what it stops.
// State: <html data-motion-headline="paused"> (and data-motion-logos), remembered for the session; a
// "gg:motion" event tells every moving part. Reduced motion means nothing moves and no control shows.
const KEY = 'gg-motion-';
const EVENT = 'gg:motion';

/** The parts that move on their own, each with its own switch. */
export type MotionPart = 'headline' | 'logos';

export const prefersReducedMotion = (): boolean => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

const attr = (part: MotionPart) => `motion${part[0].toUpperCase()}${part.slice(1)}` as const;

export function motionPaused(part: MotionPart): boolean {
  return document.documentElement.dataset[attr(part)] === 'paused';
}

function setPaused(part: MotionPart, paused: boolean): void {
  document.documentElement.dataset[attr(part)] = paused ? 'paused' : 'running';
  try { sessionStorage.setItem(KEY + part, paused ? 'paused' : 'running'); } catch { /* storage off: this page only */ }
  document.dispatchEvent(new Event(EVENT));
}

/** Reads the session's choice once per page. */
function restore(part: MotionPart): void {
  if (document.documentElement.dataset[attr(part)]) return;
  let saved: string | null = null;
  try { saved = sessionStorage.getItem(KEY + part); } catch { /* storage off */ }
  document.documentElement.dataset[attr(part)] = saved === 'paused' ? 'paused' : 'running';
}

export function onMotionChange(fn: () => void): void {
  document.addEventListener(EVENT, fn);
}

/** Makes `button` the pause/play toggle of `part`: its visible label says what a press does. */
export function bindMotionButton(button: HTMLButtonElement, part: MotionPart): void {
  restore(part);
  const pauseLabel = button.dataset.pauseLabel ?? '';
  const playLabel = button.dataset.playLabel ?? '';
  const sync = () => {
    const paused = motionPaused(part);
    button.textContent = paused ? playLabel : pauseLabel;
    button.dataset.state = paused ? 'paused' : 'running';
  };
  button.addEventListener('click', () => setPaused(part, !motionPaused(part)));
  onMotionChange(sync);
  sync();
  button.dataset.ready = '';
}

/** One control's two labels (from site.yaml `motion`), carried to the scripts in data-* attributes. */
export interface MotionLabels { pause: string; play: string }
/** The labels of every part's control. */
export type MotionControls = Record<MotionPart, MotionLabels>;
