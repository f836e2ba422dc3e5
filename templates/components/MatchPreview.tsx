// The home hero's illustration: two sample profiles and the reasons they match, drawn in HTML and CSS
// (no images). It shows what the product will do, so it is hidden from screen readers as decoration and
// says in a visible caption that it is an illustration; the words come from content/home.yaml.
import type { Home } from '../schemas/core.ts';

export function MatchPreview({ preview }: { preview: Home['preview'] }) {
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
    <figure className="match" aria-hidden="true">
      {person(a, 'a')}
      <div className="match__score"><svg viewBox="0 0 36 36" className="match__ring"><circle cx="18" cy="18" r="15.5" pathLength="100" /><circle cx="18" cy="18" r="15.5" pathLength="100" className="match__arc" /></svg><span><strong>{preview.score}</strong> {preview.scoreLabel}</span></div>
      {person(b, 'b')}
      <ul className="match__reasons">{preview.reasons.map((r) => <li key={r}>{r}</li>)}</ul>
      <figcaption className="match__caption">{preview.caption}</figcaption>
    </figure>
  );
}
