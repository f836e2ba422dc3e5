// Regenerates the marquee's self-hosted company logos: `npm run logos`.
// For every company in content/logos.yaml whose name is a brand in simple-icons (CC0, pinned in package.json),
// writes static/logos/<slug>.svg and sets the entry's `logo:`; a company without an icon keeps no `logo:` and
// shows as a text mark. The icon is drawn in the brand's colour, or in ink where that colour is too pale to
// read on a white chip. No logo is fetched from anywhere at run time: the site serves these files itself.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument, isMap, isSeq } from 'yaml';
import * as icons from 'simple-icons';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const yamlFile = path.join(root, 'content/logos.yaml');
const outDir = path.join(root, 'static/logos');
const INK = '101828';

type Icon = { title: string; slug: string; hex: string; path: string };
const byTitle = new Map<string, Icon>();
for (const v of Object.values(icons) as unknown[]) {
  const icon = v as Icon;
  if (icon && typeof icon === 'object' && typeof icon.title === 'string') byTitle.set(icon.title.toLowerCase(), icon);
}

function luminance(hex: string): number {
  const c = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}
/** The brand colour if it reads on white at 3:1 or better, else ink. */
function fill(hex: string): string {
  return (1.05) / (luminance(hex) + 0.05) >= 3 ? hex : INK;
}

const doc = parseDocument(fs.readFileSync(yamlFile, 'utf8'));
const companies = doc.get('companies');
if (!isSeq(companies)) throw new Error('content/logos.yaml: companies must be a list');
fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
let drawn = 0;
for (const item of companies.items) {
  if (!isMap(item)) continue;
  const icon = byTitle.get(String(item.get('name')).toLowerCase());
  if (!icon) { item.delete('logo'); continue; }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><title>${icon.title}</title><path fill="#${fill(icon.hex)}" d="${icon.path}"/></svg>\n`;
  fs.writeFileSync(path.join(outDir, `${icon.slug}.svg`), svg);
  item.set('logo', `${icon.slug}.svg`);
  drawn++;
}
fs.writeFileSync(yamlFile, doc.toString({ lineWidth: 0 }));
console.log(`logos: ${drawn} of ${companies.items.length} companies have an icon (static/logos/); the rest are text marks`);
