// The heroes' illustration: two sample profiles and the reasons they match, drawn in HTML and CSS (no
// images). It shows what the product will do, so it is hidden from screen readers as decoration and says in
// a visible caption that it is an illustration; the words come from content/home.yaml, and on an area or
// sector page the two roles and their focus come from that sector's content (previewFor).
import type { Home } from '../schemas/core.ts';

export type MatchIllustration = Home['preview'];

/** The home illustration with the two people recast for a sector: its first two co-founder roles, each
 * with one of its business models as a focus. */
export function previewFor(base: MatchIllustration, sector: { skills: { role: string }[]; models: { name: string }[] }): MatchIllustration {
  const [a, b] = base.people;
  const cast = (p: typeof a, i: number) => ({ ...p, role: sector.skills[i]?.role ?? p.role, skills: [sector.models[i]?.name ?? p.skills[0], p.skills[p.skills.length - 1]] });
  return { ...base, people: [cast(a, 0), cast(b, 1)] };
}

/** `aside`: beside a hero's copy on wide screens only (phones keep the form and copy first, and short). */
export function MatchPreview({ preview, aside }: { preview: MatchIllustration; aside?: boolean }) {
  const [a, b] = preview.people;
  const person = (p: typeof a, side: string) => (
    <div className={`match__card match__card--${side}`}>
      <div className="match__who">
        <span className="match__avatar">{p.initials}</span>
        <span><strong>{p.name}</strong><span className="match__role">{p.role}</span></span>
        <span className="match__badge">{p.badge}</span>
      </div>
      <ul className="match__skills">{p.skills.map((s) => <li key={s}>{s}</li>)}</ul>
    </div>
  );
  return (
    <figure className={`match${aside ? ' match--aside' : ''}`} aria-hidden="true">
      {person(a, 'a')}
      <div className="match__score"><svg viewBox="0 0 36 36" className="match__ring"><circle cx="18" cy="18" r="15.5" pathLength="100" /><circle cx="18" cy="18" r="15.5" pathLength="100" className="match__arc" /></svg><span><strong>{preview.score}</strong> {preview.scoreLabel}</span></div>
      {person(b, 'b')}
      <ul className="match__reasons">{preview.reasons.map((r) => <li key={r}>{r}</li>)}</ul>
      <figcaption className="match__caption">{preview.caption}</figcaption>
    </figure>
  );
}
