// Where marquee logos come from: a local file named in content/logos.yaml (`logo: stripe.svg` under
// static/logos/) first, else this brand-logo CDN for the entry's domain. The CSP's img-src allows its origin.
// The CDN is a guess at the company's logo by domain; when it fails the name stays as a text mark.
export const LOGO_CDN = 'https://logo.clearbit.com/{domain}';
export const LOGO_CDN_ORIGIN = new URL(LOGO_CDN.replace('{domain}', 'example.com')).origin;

export function logoSources(entry: { domain: string; logo?: string }): { local: string | null; cdn: string } {
  return { local: entry.logo ? `/logos/${entry.logo}` : null, cdn: LOGO_CDN.replace('{domain}', encodeURIComponent(entry.domain)) };
}
