// A note, tip or warning box written in the docs' Markdown as :::Callout{type="tip" title="…"} … :::.
import type { ReactNode } from 'react';

const LABEL = { note: 'Note', tip: 'Tip', warning: 'Warning' } as const;

export function Callout({ type, title, children }: { type: keyof typeof LABEL; title?: string; children?: ReactNode }) {
  return (
    <aside className={`callout callout-${type}`} aria-label={title ?? LABEL[type]}>
      <p className="callout-title">{title ?? LABEL[type]}</p>
      {children}
    </aside>
  );
}
