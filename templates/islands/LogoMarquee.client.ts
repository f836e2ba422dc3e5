// Starts the marquee (CSS animates a track marked data-moving) and wires its pause/play button to the logos'
// motion switch. Under reduced motion it never starts and the button stays hidden (CSS).
import { bindMotionButton, prefersReducedMotion } from '../lib/motion.ts';

export function enhance(root: HTMLElement): void {
  const marquee = root.querySelector<HTMLElement>('.marquee');
  const button = root.querySelector<HTMLButtonElement>('.motion-toggle');
  if (!marquee || !button) return;
  bindMotionButton(button, 'logos');
  if (!prefersReducedMotion()) marquee.dataset.moving = '';
}
