// An area page (online, hybrid, brick-and-mortar): marketing sections, figures, 15 category links, the form.
import type { Area } from '../schemas/core.ts';
import type { WaitlistFormProps } from '../islands/WaitlistForm.tsx';
import { CtaSection } from '../components/CtaSection.tsx';
import { Badge, Section, SectionHead, Stats } from '../components/ui.tsx';
import { href } from '../lib/props.ts';

export function AreaPage({ area, categories, waitlist }: { area: Area; categories: { href: string; name: string; summary: string }[]; waitlist: WaitlistFormProps }) {
  return (
    <div data-theme={area.theme === 'default' ? undefined : area.theme}>
      <section className="hero" aria-labelledby="area-title">
        <div className="container">
          <Badge>{area.badge}</Badge>
          <h1 id="area-title">{area.headline}</h1>
          <p className="lead">{area.intro}</p>
          {area.stats.length ? <Stats items={area.stats} /> : null}
        </div>
      </section>
      {area.sections.map((s, i) => (
        <Section key={s.heading} labelledBy={`area-s${i}`} alt={i % 2 === 0}>
          <SectionHead id={`area-s${i}`} title={s.heading} intro={s.intro} />
          <ul className="grid grid--3">
            {s.items.map((it) => <li key={it.title} className="card card--flat"><h3>{it.title}</h3><p>{it.text}</p></li>)}
          </ul>
        </Section>
      ))}
      <Section labelledBy="categories-title">
        <SectionHead id="categories-title" title={area.categoriesHeading} intro={area.categoriesIntro} />
        <ul className="category-grid">
          {categories.map((c) => <li key={c.href}><a className="category-link" href={href(c.href)}><strong>{c.name}</strong><span>{c.summary}</span></a></li>)}
        </ul>
      </Section>
      <CtaSection id="area-cta" cta={area.cta} waitlist={waitlist} alt />
    </div>
  );
}
