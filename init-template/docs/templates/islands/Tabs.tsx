// Tabs: one of several versions of the same content (a command per package manager). The server renders
// every tab (templates/components/Tab.tsx) one after the other; Tabs.client.ts, beside this file, turns
// them into a tab list in the browser, with no React: click a label, or the arrow keys, Home and End.
import type { ReactNode } from 'react';

export default function Tabs({ children }: { children?: ReactNode }) {
  return <div className="tabs">{children}</div>;
}
