// Builds island props from site.yaml, so every waitlist form reads its words and timings from one place.
import type { Site } from '../schemas/site.ts';
import type { WaitlistFormProps } from '../islands/WaitlistForm.tsx';

export function waitlistProps(site: Site, form: string, opts: { short?: boolean; note?: boolean } = {}): WaitlistFormProps {
  const w = site.waitlist;
  return {
    form,
    idleLabel: opts.short ? w.shortButton : w.button,
    submittingLabel: w.submitting,
    joinedLabel: w.joined,
    label: w.label,
    placeholder: w.placeholder,
    messages: w.messages,
    joinedMs: site.constants.joinedConfirmationMs,
    ...(opts.note ? { note: w.note } : {}),
  };
}

/** Internal paths follow the site's trailing-slash policy; mailto and https links pass through. */
export { href } from 'sitegen';
