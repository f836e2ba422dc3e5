// The home headline's rotating word. The server HTML shows the first word; after hydration it changes
// every `intervalMs`. It is not a live region, so screen readers are not interrupted on every change;
// the full set of words is given once in visually hidden text.
import { useEffect, useState } from 'react';

export default function RotatingWord({ words, intervalMs }: { words: string[]; intervalMs: number }) {
  const [i, setI] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setI((n) => (n + 1) % words.length), intervalMs);
    return () => clearInterval(t);
  }, [words.length, intervalMs]);
  return (
    <>
      <span className="rotating-word" aria-hidden="true" key={i} data-word={words[i]}>{words[i]}</span>
      <span className="visually-hidden">{words.join(' or ')}</span>
    </>
  );
}
