// Renders one paragraph of legal copy, turning email addresses into mailto links. Copy stays plain
// strings in content (no HTML), so it is safe to render and easy to translate.
const EMAIL = /([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})/;

export function Rich({ text }: { text: string }) {
  // split() with a capture group keeps the addresses at the odd indices.
  const parts = text.split(EMAIL);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <a key={i} href={`mailto:${part}`} dir="ltr">{part}</a> : part))}</>;
}
