// Types for the CommonJS entry points of Prism's language loader, which ships none.
declare module 'prismjs/components/index.js' {
  const loadLanguages: ((languages?: string | string[]) => void) & { silent?: boolean };
  export default loadLanguages;
}
declare module 'prismjs/components.js' {
  const components: { languages: Record<string, { alias?: string | string[] }> };
  export default components;
}
