// Builds island props from site.yaml, so every waitlist form reads its words and timings from one place.
import type { Site } from '../schemas/site.ts';
import type { WaitlistFormProps } from '../islands/WaitlistForm.tsx';

/** The form the header's "Join waitlist" link targets on pages without a form of their own: the home hero's. */
export const JOIN_ANCHOR = { form: 'home', id: 'join' } as const;

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
    noScript: { text: w.noScript, email: site.emails.info },
    ...(opts.note ? { note: w.note } : {}),
  };
}

/** Internal paths follow the site's trailing-slash policy; mailto and https links pass through. */
export { href } from 'sitegen-islands';
