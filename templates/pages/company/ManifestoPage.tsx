// /manifesto: the hero holds the page's h1; the Markdown body (h2 and below, rendered by the engine from
// content/pages/manifesto.md, so it is our own trusted HTML) is set in the .prose styles. It ends by
// saying the waitlist is open, so the waitlist form follows.
import type { Manifesto } from '../../schemas/company.ts';
import type { WaitlistFormProps } from '../../islands/WaitlistForm.tsx';
import { CtaSection } from '../../components/CtaSection.tsx';
import { PageHero } from './parts.tsx';

export function ManifestoPage({ page, html, waitlist }: { page: Manifesto; html: string; waitlist: WaitlistFormProps }) {
  return (
    <>
      <PageHero id="manifesto-title" badge={page.badge} heading={page.heading} intro={page.intro} narrow />
      <section className="section section--tight">
        <div className="container--narrow">
          <article className="prose manifesto" dangerouslySetInnerHTML={{ __html: html }} />
        </div>
      </section>
      <CtaSection id="manifesto-cta" cta={page.cta} waitlist={waitlist} alt />
    </>
  );
}
