// A sector page: back link, badge, headline, skills, models, key metrics, optional extras, and the CTA form.
import type { Sector } from '../schemas/sector.ts';
import WaitlistForm, { type WaitlistFormProps } from '../islands/WaitlistForm.tsx';
import { Badge, Stats } from '../components/ui.tsx';
import { href } from '../lib/props.ts';

export function SectorPage({ sector, back, waitlist }: { sector: Sector; back: { href: string; label: string }; waitlist: WaitlistFormProps }) {
  return (
    <div data-theme={sector.theme === 'default' ? undefined : sector.theme}>
      <section className="sector-hero" aria-labelledby="sector-title">
        <div className="container">
          <a className="back-link" href={href(back.href)}>{back.label}</a>
          <div><Badge>{sector.badge}</Badge></div>
          <h1 id="sector-title">{sector.headline}</h1>
          <p className="lead">{sector.tagline}</p>
        </div>
      </section>
      <section className="section section--tight" aria-label="Co-founders and business models">
        <div className="container split">
          <div className="card" role="group" aria-labelledby="skills-title">
            <h2 id="skills-title" className="h3-size">{sector.skillsTitle}</h2>
            <ul className="item-list">
              {sector.skills.map((s) => <li key={s.role}><strong>{s.role}</strong><span>{s.description}</span></li>)}
            </ul>
          </div>
          <div className="card" role="group" aria-labelledby="models-title">
            <h2 id="models-title" className="h3-size">{sector.modelsTitle}</h2>
            <ul className="item-list">
              {sector.models.map((m) => <li key={m.name}><strong>{m.name}</strong><span>{m.description}</span></li>)}
            </ul>
          </div>
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
            <ul className="grid grid--3">
              {x.items.map((it) => <li key={it.name} className="card card--flat"><h3>{it.name}</h3><p>{it.description}</p></li>)}
            </ul>
          </div>
        </section>
      ))}
      <section className="section" aria-labelledby="cta-title">
        <div className="container">
          <div className="cta-card">
            <h2 id="cta-title">{sector.cta.heading}</h2>
            <p className="lead">{sector.cta.text}</p>
            <WaitlistForm {...waitlist} hydrate="visible" />
          </div>
        </div>
      </section>
    </div>
  );
}
