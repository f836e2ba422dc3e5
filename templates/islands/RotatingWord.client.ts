// Rotates the headline word every data-interval-ms, without React. Each change puts a fresh span in place
// of the old one (as React's key did), so the CSS entrance animation runs again. It does not rotate at all
// under prefers-reduced-motion, nor while its motion switch is paused. Its pause/play button goes at the end
// of the hero, out of the reading line (after the form in tab order), drawn in the hero's bottom padding so
// inserting it moves nothing.
import { bindMotionButton, motionPaused, onMotionChange, prefersReducedMotion } from '../lib/motion.ts';

export function enhance(root: HTMLElement): void {
  const data = root.querySelector<HTMLElement>('[data-words]');
  let word = root.querySelector<HTMLElement>('.rotating-word');
  if (!data || !word) return;
  const words = JSON.parse(data.dataset.words ?? '[]') as string[];
  const intervalMs = Number(data.dataset.intervalMs);
  if (words.length < 2 || !(intervalMs > 0) || prefersReducedMotion()) return;

  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'motion-toggle motion-toggle--headline';
  button.dataset.pauseLabel = data.dataset.pauseLabel;
  button.dataset.playLabel = data.dataset.playLabel;
  (root.closest('.hero') ?? root.closest('section') ?? root).append(button);
  bindMotionButton(button, 'headline');

  let i = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const tick = () => {
    if (prefersReducedMotion()) return;
    i = (i + 1) % words.length;
    const next = word!.cloneNode(false) as HTMLElement;
    next.dataset.word = words[i];
    next.textContent = words[i];
    word!.replaceWith(next);
    word = next;
  };
  // Pausing stops the clock; playing starts a full interval again, so the word never changes at once.
  const run = () => {
    clearInterval(timer);
    timer = motionPaused('headline') ? undefined : setInterval(tick, intervalMs);
  };
  onMotionChange(run);
  run();
}
