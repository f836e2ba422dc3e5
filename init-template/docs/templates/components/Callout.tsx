// A note that stands out from the text: `note`, `tip` or `warning`, with an optional title.
import type { ReactNode } from 'react';

const LABEL = { note: 'Note', tip: 'Tip', warning: 'Warning' } as const;

export function Callout({ type = 'note', title, children }: { type?: keyof typeof LABEL; title?: string; children?: ReactNode }) {
  return (
    <div className={`callout callout-${type}`} role="note">
      <p className="callout-title">{title ?? LABEL[type]}</p>
      {children}
    </div>
  );
}
