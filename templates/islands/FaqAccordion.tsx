// The FAQ accordion (server HTML). Without JavaScript it is a plain, readable list of headings and answers
// (all indexable). FaqAccordion.client.ts turns each question into a native <button> inside its heading
// (Enter and Space work for free) with aria-expanded and aria-controls, all closed, at most one open,
// clicking the open one closes it; a closed answer keeps its text in the DOM behind `hidden`. While the
// script loads, company.css hides the static answers under `@media (scripting: enabled)`, so visitors with
// JavaScript never see the list flash open and collapse. Buttons appear only once they work.
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
  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="faq faq--static">
      {items.map((item) => (
        <div key={item.id} className="faq__item">
          <H className="faq__heading"><span className="faq__question">{item.question}</span></H>
          {/* No role="region": with seven panels, landmarks would crowd the page (WAI-ARIA APG advice). */}
          <div id={`faq-${item.id}-answer`} className="faq__answer">
            {item.answer.map((p) => <p key={p}>{p}</p>)}
          </div>
        </div>
      ))}
    </div>
  );
}
