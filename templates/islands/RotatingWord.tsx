// The home headline's rotating word (server HTML), which shows the first word;
// RotatingWord.client.ts changes it every `intervalMs`, without React. It is not a live region, so screen
// readers are not interrupted on every change; the full set of words is given once in visually hidden
// text. The words and the interval travel to the script in an empty span's data-* attributes.
// Layout stays put when the word changes: the island is a one-cell inline grid (site.css) in which every word
// also sits as an invisible ghost (its text drawn from data-text by CSS, so the words are not repeated in
// the document's text), so the box is always as wide and tall as the longest word and the headline
// breaks the same way whichever word shows. Without it a longer word wrapped the headline onto another
// line 8 s after load and pushed the rest of the page down (Lighthouse CLS 0.093 on /).
import type { MotionLabels } from '../lib/motion.ts';

export interface RotatingWordProps {
  words: string[];
  intervalMs: number;
  /** The headline's pause/play labels; the script creates the button. */
  motionLabels: MotionLabels;
}

export default function RotatingWord({ words, intervalMs, motionLabels }: RotatingWordProps) {
  return (
    <>
      <span className="rotating-word" aria-hidden="true" data-word={words[0]}>{words[0]}</span>
      <span className="visually-hidden">{words.join(' or ')}</span>
      <span data-words={JSON.stringify(words)} data-interval-ms={intervalMs} data-pause-label={motionLabels.pause} data-play-label={motionLabels.play} />
      {words.map((w, i) => <span key={i} className="rotating-word__ghost" aria-hidden="true" data-text={w} />)}
    </>
  );
}
