// The logo marquee (server HTML): every company or university as a chip with its self-hosted logo
// (static/logos/, from `npm run logos`); nothing is loaded from another origin. The list is duplicated once for the seamless loop; the copies are hidden from assistive
// technology and, under reduced motion, from view (the chips then wrap, each shown once). It moves only once
// LogoMarquee.client.ts has run, which also makes the pause/play button (shared with the headline) work;
// without JavaScript the strip stands still. CSS pauses it on hover and focus too. The logos load eagerly
// (a lazy image in the moving, transformed track may never be seen as "near the viewport" and stay blank) but
// at low priority, which also keeps React's server renderer from adding a <link rel="preload"> per image.
import type { MotionLabels } from '../lib/motion.ts';
import { logoSrc } from '../lib/logos.ts';

export interface LogoMarqueeProps {
  id: string;
  label: string;
  items: { name: string; domain: string; logo: string }[];
  reverse?: boolean;
  motionLabels: MotionLabels;
}

export default function LogoMarquee({ id, label, items, reverse, motionLabels }: LogoMarqueeProps) {
  const mark = (l: LogoMarqueeProps['items'][number], copy: boolean) => {
    return (
      <li key={`${copy ? 'b' : 'a'}-${l.domain}`} className={`logo-mark${copy ? ' logo-mark--copy' : ''}`} aria-hidden={copy || undefined}>
        <img src={logoSrc(l)} alt="" width={24} height={24} decoding="async" fetchPriority="low" />
        <span className="logo-mark__name">{l.name}</span>
      </li>
    );
  };
  return (
    <div className={`marquee${reverse ? ' marquee--reverse' : ''}`}>
      <h3 className="visually-hidden" id={id}>{label}</h3>
      {/* Focusable so the keyboard can scroll it where it stands still (reduced motion); focus also pauses it. */}
      <ul className="marquee__track" tabIndex={0} aria-labelledby={id}>
        {items.map((l) => mark(l, false))}
        {items.map((l) => mark(l, true))}
      </ul>
      <button type="button" className="motion-toggle" data-pause-label={motionLabels.pause} data-play-label={motionLabels.play}>{motionLabels.pause}</button>
    </div>
  );
}
