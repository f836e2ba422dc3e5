// Small presentational pieces shared by pages.
import type { ReactNode } from 'react';

export function Section({ children, alt, theme, tight, labelledBy, id }: { children: ReactNode; alt?: boolean; theme?: boolean; tight?: boolean; labelledBy?: string; id?: string }) {
  const cls = ['section', alt && 'section--alt', theme && 'section--theme', tight && 'section--tight'].filter(Boolean).join(' ');
  return <section className={cls} aria-labelledby={labelledBy} id={id}><div className="container">{children}</div></section>;
}

export function SectionHead({ id, eyebrow, title, intro, center }: { id: string; eyebrow?: string; title: string; intro?: string; center?: boolean }) {
  return (
    <div className={`section__head${center ? ' section__head--center' : ''}`}>
      {eyebrow ? <span className="eyebrow">{eyebrow}</span> : null}
      <h2 id={id}>{title}</h2>
      {intro ? <p className="lead">{intro}</p> : null}
    </div>
  );
}

export function Badge({ children, accent, dot }: { children: ReactNode; accent?: boolean; dot?: boolean }) {
  return <span className={`badge${accent ? ' badge--accent' : ''}`}>{dot ? <span className="badge__dot" aria-hidden="true" /> : null}{children}</span>;
}

export function Stats({ items }: { items: { value: string; label: string }[] }) {
  return (
    <ul className="stats">
      {items.map((s) => <li key={s.label} className="stat"><span className="stat__value">{s.value}</span><span className="stat__label">{s.label}</span></li>)}
    </ul>
  );
}

export function NumberedCards({ items, headingLevel = 3 }: { items: { title: string; text: string }[]; headingLevel?: 3 | 4 }) {
  const H = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <ol className="steps">
      {items.map((s, i) => (
        <li key={s.title} className="card">
          <span className="card__num" aria-hidden="true">{i + 1}</span>
          <H>{s.title}</H>
          <p>{s.text}</p>
        </li>
      ))}
    </ol>
  );
}
