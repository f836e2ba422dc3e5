// Comparing a page from dev with the same page from a build: dev bundles React's development build with
// source maps, so the hashed asset names differ by design and everything else must not.
export const withoutAssetHashes = (html: string) => html.replace(/\/assets\/([\w-]+?)-[A-Z0-9]{8}\.(js|css)/g, '/assets/$1-#.$2');
