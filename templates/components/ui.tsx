// Small presentational pieces shared by pages. Card grids pick their column count from how many cards
// they hold (gridCols), so a row is never left with one card hanging under a full one.
import type { ReactNode } from 'react';
import { keepWhole } from './keepWhole.tsx';

export function Section({ children, alt, theme, tight, labelledBy, id, className }: { children: ReactNode; alt?: boolean; theme?: boolean; tight?: boolean; labelledBy?: string; id?: string; className?: string }) {
  const cls = ['section', alt && 'section--alt', theme && 'section--theme', tight && 'section--tight', className].filter(Boolean).join(' ');
  return <section className={cls} aria-labelledby={labelledBy} id={id}><div className="container">{children}</div></section>;
}

export function SectionHead({ id, eyebrow, title, intro, center }: { id: string; eyebrow?: string; title: string; intro?: string; center?: boolean }) {
  return (
    <div className={`section__head${center ? ' section__head--center' : ''}`}>
      {eyebrow ? <span className="eyebrow">{eyebrow}</span> : null}
      <h2 id={id}>{keepWhole(title)}</h2>
      {intro ? <p className="lead">{intro}</p> : null}
    </div>
  );
}

export function Badge({ children, accent, dot }: { children: ReactNode; accent?: boolean; dot?: boolean }) {
  return <span className={`badge${accent ? ' badge--accent' : ''}`}>{dot ? <span className="badge__dot" aria-hidden="true" /> : null}{children}</span>;
}

/**
 * Columns for n cards on a wide screen: a count that divides n, so every row is full (3 for 3, 6, 9, 15;
 * 4 for 4 and 8, shown 2×2 on mid-size screens; 2 for 2; 5 for 5 side by side). Phones always get one.
 */
export function gridCols(n: number): number {
  if (n % 3 === 0) return 3;
  if (n % 4 === 0) return 4;
  if (n % 2 === 0) return 2;
  return n <= 5 ? n : 1;
}

/** A list of cards as a grid: no list markers, equal rows. */
export function CardGrid({ count, ordered, className, children }: { count: number; ordered?: boolean; className?: string; children: ReactNode }) {
  const cls = `cards cards--c${gridCols(count)}${className ? ` ${className}` : ''}`;
  return ordered ? <ol className={cls}>{children}</ol> : <ul className={cls}>{children}</ul>;
}

/** Figures: two per row on phones (2×2 for four), all in one row from tablets up. */
export function Stats({ items }: { items: { value: string; label: string }[] }) {
  return (
    <ul className={`stats stats--c${items.length}`}>
      {items.map((s) => <li key={s.label} className="stat"><span className="stat__value">{s.value}</span><span className="stat__label">{s.label}</span></li>)}
    </ul>
  );
}

export function NumberedCards({ items, headingLevel = 3 }: { items: { title: string; text: string }[]; headingLevel?: 3 | 4 }) {
  const H = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <CardGrid count={items.length} ordered className="steps">
      {items.map((s, i) => (
        <li key={s.title} className="card">
          <span className="card__num" aria-hidden="true">{i + 1}</span>
          <H>{s.title}</H>
          <p>{s.text}</p>
        </li>
      ))}
    </CardGrid>
  );
}
