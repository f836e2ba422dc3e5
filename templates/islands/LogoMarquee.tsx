// The logo marquee (server HTML): every company or university is a text mark (initial + name), duplicated
// once for the seamless loop with the copies hidden from assistive technology. LogoMarquee.client.ts swaps
// in a real logo when one loads (local file, else the CDN) and keeps the text mark when none does, so the
// marquee never shows a broken image. CSS pauses it on hover/focus and stops it for reduced motion.
import { logoSources } from '../lib/logos.ts';

export interface LogoMarqueeProps {
  id: string;
  label: string;
  items: { name: string; domain: string; logo?: string }[];
  reverse?: boolean;
}

export default function LogoMarquee({ id, label, items, reverse }: LogoMarqueeProps) {
  const mark = (l: LogoMarqueeProps['items'][number], copy: boolean) => {
    const src = logoSources(l);
    return (
      <li key={`${copy ? 'b' : 'a'}-${l.domain}`} className="logo-mark" aria-hidden={copy || undefined} data-logo-local={src.local ?? undefined} data-logo-cdn={src.cdn}>
        <span className="logo-mark__initial" aria-hidden="true">{l.name.slice(0, 1)}</span>{l.name}
      </li>
    );
  };
  return (
    <div className={`marquee${reverse ? ' marquee--reverse' : ''}`}>
      <h3 className="visually-hidden" id={id}>{label}</h3>
      <ul className="marquee__track">
        {items.map((l) => mark(l, false))}
        {items.map((l) => mark(l, true))}
      </ul>
    </div>
  );
}
