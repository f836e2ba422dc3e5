// A sector page: back link, badge, headline, the waitlist form in the hero (a match of this sector's roles
// beside it on wide screens), skills, models, key metrics,
// optional extras, and the closing CTA form.
import type { Sector } from '../schemas/sector.ts';
import WaitlistForm, { type WaitlistFormProps } from '../islands/WaitlistForm.tsx';
import { CtaSection } from '../components/CtaSection.tsx';
import { Badge, CardGrid, Stats } from '../components/ui.tsx';
import { href } from '../lib/props.ts';
import { keepWhole } from '../components/keepWhole.tsx';
import { MatchPreview, type MatchIllustration } from '../components/MatchPreview.tsx';

function ItemListCard({ id, title, items }: { id: string; title: string; items: { name: string; description: string }[] }) {
  return (
    <div className="card" role="group" aria-labelledby={id}>
      <h2 id={id} className="h3-size">{keepWhole(title)}</h2>
      <ul className="item-list">
        {items.map((it) => <li key={it.name}><strong>{it.name}</strong><span>{it.description}</span></li>)}
      </ul>
    </div>
  );
}

export function SectorPage({ sector, back, waitlist, heroWaitlist, preview }: { sector: Sector; back: { href: string; label: string }; waitlist: WaitlistFormProps; heroWaitlist: WaitlistFormProps; preview: MatchIllustration }) {
  return (
    <div data-theme={sector.theme === 'default' ? undefined : sector.theme}>
      <section className="sector-hero" aria-labelledby="sector-title">
        <div className="container hero__split">
          <div className="hero__copy">
            <a className="back-link" href={href(back.href)}>{back.label}</a>
            <div><Badge>{sector.badge}</Badge></div>
            <h1 id="sector-title">{keepWhole(sector.headline)}</h1>
            <p className="lead">{sector.tagline}</p>
            <WaitlistForm {...heroWaitlist} />
          </div>
          <MatchPreview preview={preview} aside />
        </div>
      </section>
      <section className="section section--tight section--alt" aria-label="Co-founders and business models">
        <div className="container split">
          <ItemListCard id="skills-title" title={sector.skillsTitle} items={sector.skills.map((s) => ({ name: s.role, description: s.description }))} />
          <ItemListCard id="models-title" title={sector.modelsTitle} items={sector.models} />
        </div>
      </section>
      <section className="section section--tight" aria-labelledby="metrics-title">
        <div className="container">
          <div className="metrics-band">
            <h2 id="metrics-title">Key Metrics</h2>
            <Stats items={sector.metrics} />
          </div>
        </div>
      </section>
      {sector.extras.map((x, i) => (
        <section key={x.title} className={`section section--tight${i % 2 === 0 ? ' section--alt' : ''}`} aria-labelledby={`extra-${i}`}>
          <div className="container">
            <div className="section__head"><h2 id={`extra-${i}`}>{x.title}</h2>{x.intro ? <p className="lead">{x.intro}</p> : null}</div>
            <CardGrid count={x.items.length}>
              {x.items.map((it) => <li key={it.name} className="card card--flat"><h3>{it.name}</h3><p>{it.description}</p></li>)}
            </CardGrid>
          </div>
        </section>
      ))}
      {/* Surfaces alternate: skills (grey), metrics (white), extras grey/white…, so the CTA takes the next one. */}
      <CtaSection id="cta-title" cta={sector.cta} waitlist={waitlist} alt={sector.extras.length % 2 === 0} />
    </div>
  );
}
