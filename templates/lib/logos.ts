// Where a marquee logo comes from: the self-hosted file named by `logo:` in content/logos.yaml (static/logos/,
// written by scripts/logos.ts from simple-icons). No entry is looked up on a logo CDN: visitors' browsers talk
// to no third party before consent, and an entry without a file is a text mark.
export function logoSrc(entry: { logo?: string }): string | null {
  return entry.logo ? `/logos/${entry.logo}` : null;
}
