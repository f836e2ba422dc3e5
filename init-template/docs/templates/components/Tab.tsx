// One tab of a Tabs group (templates/islands/Tabs.tsx). Without JavaScript every tab shows, under its label.
import type { ReactNode } from 'react';

export function Tab({ label, children }: { label: string; children?: ReactNode }) {
  return (
    <section className="tab" data-label={label}>
      <p className="tab-label">{label}</p>
      {children}
    </section>
  );
}
