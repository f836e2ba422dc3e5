// One page-wide pause switch for everything that moves on its own (the rotating headline, the logo marquees),
// so a visitor can stop motion from any of its controls (WCAG 2.2.2). State: <html data-motion="paused">,
// remembered for the session; a "gg:motion" event tells every moving part. Reduced motion means nothing moves.
const KEY = 'gg-motion';
const EVENT = 'gg:motion';

export const prefersReducedMotion = (): boolean => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export function motionPaused(): boolean {
  return document.documentElement.dataset.motion === 'paused';
}

function setPaused(paused: boolean): void {
  document.documentElement.dataset.motion = paused ? 'paused' : 'running';
  try { sessionStorage.setItem(KEY, paused ? 'paused' : 'running'); } catch { /* storage off: this page only */ }
  document.dispatchEvent(new Event(EVENT));
}

/** Reads the session's choice once per page. */
function restore(): void {
  if (document.documentElement.dataset.motion) return;
  let saved: string | null = null;
  try { saved = sessionStorage.getItem(KEY); } catch { /* storage off */ }
  document.documentElement.dataset.motion = saved === 'paused' ? 'paused' : 'running';
}

export function onMotionChange(fn: () => void): void {
  document.addEventListener(EVENT, fn);
}

/** Makes `button` a pause/play toggle: its visible label says what a press does. */
export function bindMotionButton(button: HTMLButtonElement): void {
  restore();
  const pauseLabel = button.dataset.pauseLabel ?? '';
  const playLabel = button.dataset.playLabel ?? '';
  const sync = () => {
    const paused = motionPaused();
    button.textContent = paused ? playLabel : pauseLabel;
    button.dataset.state = paused ? 'paused' : 'running';
  };
  button.addEventListener('click', () => setPaused(!motionPaused()));
  onMotionChange(sync);
  sync();
  button.dataset.ready = '';
}

/** The pause/play button's two labels (from site.yaml `motion`), carried to the scripts in data-* attributes. */
export interface MotionLabels { pause: string; play: string }
