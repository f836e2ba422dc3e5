// The FAQ accordion (an island): none open at first, at most one open, clicking the open one closes it.
// Each question is a native <button> inside a heading (Enter and Space work for free) with aria-expanded and
// aria-controls; a closed answer keeps its text in the DOM behind the `hidden` attribute.
//
// Without JavaScript the accordion never becomes interactive, so the server HTML is a plain list of headings
// and answers, all readable (and all indexable). The first client render matches it exactly (no hydration
// mismatch); an effect then switches to the interactive form, all closed. While scripts load, company.css
// hides the static answers under `@media (scripting: enabled)`, so visitors with JavaScript never see the
// list flash open and collapse. Buttons are rendered only once they work: a dead button is worse than text.
import { useEffect, useId, useState } from 'react';

export interface FaqItem {
  id: string;
  question: string;
  /** Paragraphs of plain text. */
  answer: string[];
}

export interface FaqAccordionProps {
  items: FaqItem[];
  /** The questions' heading level, so the page keeps h1 → h2 → h3 order. */
  headingLevel?: 2 | 3;
}

export default function FaqAccordion({ items, headingLevel = 2 }: FaqAccordionProps) {
  const uid = useId();
  const [interactive, setInteractive] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  useEffect(() => setInteractive(true), []);
  const H = headingLevel === 2 ? 'h2' : 'h3';

  return (
    <div className={`faq${interactive ? '' : ' faq--static'}`}>
      {items.map((item, i) => {
        const expanded = open === i;
        const answerId = `${uid}-${item.id}-answer`;
        return (
          <div key={item.id} className="faq__item" data-open={interactive ? String(expanded) : undefined}>
            <H className="faq__heading">
              {interactive ? (
                <button type="button" className="faq__question" aria-expanded={expanded} aria-controls={answerId}
                  onClick={() => setOpen(expanded ? null : i)}>
                  {item.question}
                </button>
              ) : (
                <span className="faq__question">{item.question}</span>
              )}
            </H>
            {/* No role="region": with seven panels, landmarks would crowd the page (WAI-ARIA APG advice). */}
            <div id={answerId} className="faq__answer" hidden={interactive && !expanded}>
              {item.answer.map((p) => <p key={p}>{p}</p>)}
            </div>
          </div>
        );
      })}
    </div>
  );
}
