// The closing call to action pages end with: a heading, a line of copy and an action — the waitlist form
// by default, or any other action passed as children (a link to support, to the FAQs).
import type { ReactNode } from 'react';
import WaitlistForm, { type WaitlistFormProps } from '../islands/WaitlistForm.tsx';
import { Section } from './ui.tsx';
import { keepWhole } from './keepWhole.tsx';

interface CtaSectionProps {
  id: string;
  cta: { heading: string; text: string };
  waitlist?: WaitlistFormProps;
  children?: ReactNode;
  alt?: boolean;
  tight?: boolean;
  className?: string;
}

export function CtaSection({ id, cta, waitlist, children, alt, tight, className }: CtaSectionProps) {
  return (
    <Section labelledBy={id} alt={alt} tight={tight}>
      <div className={`cta-card${className ? ` ${className}` : ''}`}>
        <h2 id={id}>{keepWhole(cta.heading)}</h2>
        <p className="lead">{cta.text}</p>
        {/* Enabled with the page's other scripts, so its button never waits for the form to scroll into view. */}
        {waitlist ? <WaitlistForm {...waitlist} /> : children}
      </div>
    </Section>
  );
}
