// An island: rendered to HTML at build time, then hydrated in the browser (see hydrate= where it is used).
import { useId, useState } from 'react';

export default function Counter({ start, label }: { start: number; label: string }) {
  const [count, setCount] = useState(start);
  const id = useId();
  return (
    <p className="counter">
      <span id={id}>{label}</span>{' '}
      <button type="button" aria-describedby={id} onClick={() => setCount(count + 1)}>count is {count}</button>
    </p>
  );
}
