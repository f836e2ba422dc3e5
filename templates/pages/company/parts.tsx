// Pieces every company page shares: the opening hero (badge, the page's one h1, lead) and mail links.
import type { ReactNode } from 'react';
import { Badge } from '../../components/ui.tsx';
import { keepWhole } from '../../components/keepWhole.tsx';

/** A mailto: URL; the subject is encoded so spaces and ampersands survive every mail client. */
export function mailto(email: string, subject?: string): string {
  return `mailto:${email}${subject ? `?subject=${encodeURIComponent(subject)}` : ''}`;
}

/** `narrow` lines the hero up with a page whose body sits in the narrow reading column; `visual` sits beside
 * the copy on wide screens (under it on phones). */
export function PageHero({ id, badge, heading, intro, narrow, visual, children }: { id: string; badge?: string; heading: string; intro: string; narrow?: boolean; visual?: ReactNode; children?: ReactNode }) {
  const copy = (
    <>
      {badge ? <Badge accent>{badge}</Badge> : null}
      <h1 id={id}>{keepWhole(heading)}</h1>
      <p className="lead">{intro}</p>
      {children}
    </>
  );
  return (
    <section className="hero company-hero" aria-labelledby={id}>
      {visual
        ? <div className="container hero__split"><div className="hero__copy">{copy}</div>{visual}</div>
        : <div className={narrow ? 'container--narrow' : 'container'}>{copy}</div>}
    </section>
  );
}

export function MailButton({ email, subject, label, secondary }: { email: string; subject?: string; label: string; secondary?: boolean }) {
  return <a className={`btn ${secondary ? 'btn--secondary' : 'btn--primary'}`} href={mailto(email, subject)}>{label}</a>;
}

/** The address written out too, for visitors whose browser has no mail app set up. */
export function MailAddress({ email }: { email: string }) {
  return <p className="company-address"><a href={mailto(email)}>{email}</a></p>;
}
