// The closing call to action most pages end with: a heading, a line of copy and a waitlist form.
import WaitlistForm, { type WaitlistFormProps } from '../islands/WaitlistForm.tsx';
import { Section } from './ui.tsx';

export function CtaSection({ id, cta, waitlist, alt }: { id: string; cta: { heading: string; text: string }; waitlist: WaitlistFormProps; alt?: boolean }) {
  return (
    <Section labelledBy={id} alt={alt}>
      <div className="cta-card">
        <h2 id={id}>{cta.heading}</h2>
        <p className="lead">{cta.text}</p>
        {/* Below the fold: hydrated when it scrolls into view. */}
        <WaitlistForm {...waitlist} hydrate="visible" />
      </div>
    </Section>
  );
}
