// The home headline's rotating word (server HTML), which shows the first word;
// RotatingWord.client.ts changes it every `intervalMs`, without React. It is not a live region, so screen
// readers are not interrupted on every change; the full set of words is given once in visually hidden
// text. The words and the interval travel to the script in an empty span's data-* attributes.
export interface RotatingWordProps {
  words: string[];
  intervalMs: number;
}

export default function RotatingWord({ words, intervalMs }: RotatingWordProps) {
  return (
    <>
      <span className="rotating-word" aria-hidden="true" data-word={words[0]}>{words[0]}</span>
      <span className="visually-hidden">{words.join(' or ')}</span>
      <span data-words={JSON.stringify(words)} data-interval-ms={intervalMs} />
    </>
  );
}
