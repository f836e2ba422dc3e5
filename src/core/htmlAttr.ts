// The text of a double-quoted HTML attribute that the engine writes itself (not through React): `&`, `"` and `<`
// escaped, so nothing in it can end the attribute or open markup. One place for the engine's HTML strings.
export const attr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
