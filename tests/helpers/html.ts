// Comparing a page from dev with the same page from a build: dev bundles React's development build with
// source maps and a hot-update runtime, so its chunks differ by design (their names and how many a page
// preloads), and its stylesheets keep one URL without a hash (dev swaps them in place on an edit);
// everything else must not differ.
export const withoutAssetHashes = (html: string) => html
  .replace(/\/assets\/([\w-]+?)-[A-Z0-9]{8}\.(js|css)/g, '/assets/$1.$2')
  .replace(/(?:<link rel="modulepreload" href="[^"]*"\/>)+/g, '<link rel="modulepreload" …/>');
