// Where a marquee logo comes from: the self-hosted file named by `logo:` in content/logos.yaml (static/logos/,
// written by scripts/logos.ts from simple-icons). No entry is looked up on a logo CDN: visitors' browsers talk
// to no third party before consent. Every entry has its file (the schema requires it).
export function logoSrc(entry: { logo: string }): string {
  return `/logos/${entry.logo}`;
}
