// Search: a box in the header that finds pages and their sections as a reader types. The server writes it
// hidden (data-state="off": see templates/site.css), since without JavaScript it could find nothing;
// Search.client.ts, beside this file, shows it, fetches the index (search.json, written by a route in
// sitegen.config.ts) the first time it is used, and lists up to eight matches as links. Ctrl+K reaches it.
export default function Search({ index }: { index: string }) {
  return (
    <div className="search" role="search" data-index={index} data-state="off">
      <label htmlFor="search-box" className="sr-only">Search the docs</label>
      <input id="search-box" type="search" placeholder="Search the docs" autoComplete="off" spellCheck={false}
        aria-describedby="search-status" aria-controls="search-results" />
      <p id="search-status" className="sr-only" aria-live="polite" />
      <ul id="search-results" className="search-results" />
    </div>
  );
}
