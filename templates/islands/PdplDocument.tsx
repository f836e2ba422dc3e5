// The UAE PDPL statement (an island) with an English/Arabic toggle. The server HTML is English; the
// choice is kept in the URL (?lang=ar, via history.replaceState) so a link opens in the same language.
// In Arabic the document carries lang="ar" dir="rtl"; the CSS uses logical properties, so it mirrors.
import { useEffect, useState } from 'react';
import { Rich } from '../pages/legal/Rich.tsx';

export type PdplLang = 'en' | 'ar';

export interface PdplDoc {
  heading: string;
  intro: string;
  languageLabel: string;
  versionLabel: string;
  statusHeading: string;
  contentsLabel: string;
  status: { label: string; state: 'complete' | 'in-progress' | 'planned'; stateLabel: string }[];
  sections: { title: string; paragraphs: string[] }[];
}

export interface PdplDocumentProps {
  version: string;
  /** Each language's name, written in that language ("English", "العربية"). */
  languages: Record<PdplLang, string>;
  docs: Record<PdplLang, PdplDoc>;
}

const LANGS: PdplLang[] = ['en', 'ar'];

/** Reads ?lang= from the address; anything but "ar" means the default, English. */
function langFromUrl(): PdplLang {
  return new URLSearchParams(window.location.search).get('lang') === 'ar' ? 'ar' : 'en';
}

export default function PdplDocument({ version, languages, docs }: PdplDocumentProps) {
  // Always start in English, as the server rendered, so hydration matches; the URL is read after.
  const [lang, setLang] = useState<PdplLang>('en');
  useEffect(() => { setLang(langFromUrl()); }, []);

  function choose(next: PdplLang) {
    setLang(next);
    const url = new URL(window.location.href);
    if (next === 'en') url.searchParams.delete('lang');
    else url.searchParams.set('lang', next);
    // replaceState, not pushState: switching language is not a navigation worth a Back step.
    window.history.replaceState(window.history.state, '', url);
  }

  const doc = docs[lang];
  const anchor = (i: number) => `pdpl-${i + 1}`;
  return (
    <article className="pdpl" lang={lang} dir={lang === 'ar' ? 'rtl' : 'ltr'}>
      <header className="hero legal-hero pdpl__hero">
        <div className="container">
          <div className="pdpl__bar">
            <span className="badge">{doc.versionLabel} {version}</span>
            <div className="lang-toggle" role="group" aria-label={doc.languageLabel}>
              {LANGS.map((l) => (
                <button key={l} type="button" className="lang-toggle__button" lang={l} aria-pressed={lang === l} onClick={() => choose(l)}>
                  {languages[l]}
                </button>
              ))}
            </div>
          </div>
          <h1 id="pdpl-title">{doc.heading}</h1>
          <p className="lead">{doc.intro}</p>
        </div>
      </header>
      <div className="section section--tight">
        <div className="container legal-layout">
          <nav className="legal-toc" aria-labelledby="pdpl-toc">
            <h2 id="pdpl-toc" className="legal-toc__title">{doc.contentsLabel}</h2>
            <ol>{doc.sections.map((s, i) => <li key={anchor(i)}><a href={`#${anchor(i)}`}>{s.title}</a></li>)}</ol>
          </nav>
          <div className="prose legal-doc">
            <section className="card card--flat pdpl-status" aria-labelledby="pdpl-status-title">
              <h2 id="pdpl-status-title" className="pdpl-status__title">{doc.statusHeading}</h2>
              <ul className="pdpl-status__list">
                {doc.status.map((s) => (
                  <li key={s.label} className="pdpl-status__item">
                    <span>{s.label}</span>
                    <span className={`pdpl-status__state pdpl-status__state--${s.state}`}>{s.stateLabel}</span>
                  </li>
                ))}
              </ul>
            </section>
            {doc.sections.map((s, i) => (
              <section key={anchor(i)} id={anchor(i)} className="legal-section" aria-labelledby={`${anchor(i)}-title`}>
                <h2 id={`${anchor(i)}-title`}><span className="legal-section__num">{i + 1}.</span> {s.title}</h2>
                {s.paragraphs.map((p) => <p key={p}><Rich text={p} /></p>)}
              </section>
            ))}
          </div>
        </div>
      </div>
    </article>
  );
}
