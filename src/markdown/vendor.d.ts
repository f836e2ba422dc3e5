// Types for the CommonJS entry points of Prism's language loader and smartypants, which ship none.
declare module 'prismjs/components/index.js' {
  const loadLanguages: ((languages?: string | string[]) => void) & { silent?: boolean };
  export default loadLanguages;
}
declare module 'prismjs/components.js' {
  const components: { languages: Record<string, { alias?: string | string[] }> };
  export default components;
}
declare module 'smartypants' {
  /** SmartyPants over HTML, emitting Unicode characters (tags, <pre>, <code>, <kbd>, <script> are left alone). */
  export function smartypantsu(html: string, attr?: string | number): string;
}
