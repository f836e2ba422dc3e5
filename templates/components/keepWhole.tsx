// Keeps hyphenated words whole in headings: "Co-Founder" never breaks as "Co- / Founder". Each word that
// holds a hyphen is wrapped in a span that does not wrap (CSS .nowrap); the text itself is unchanged.
import { Fragment, type ReactNode } from 'react';

const HYPHENATED = /(\S+-\S+)/;

export function keepWhole(text: string): ReactNode {
  const parts = text.split(HYPHENATED);
  if (parts.length === 1) return text;
  return parts.map((p, i) => (i % 2 === 1 ? <span key={i} className="nowrap">{p}</span> : <Fragment key={i}>{p}</Fragment>));
}
