// Search of the documentation. The server renders the form hidden (data-state="off"): without JavaScript there is nothing to
// search with, so nothing shows. Search.client.ts shows it, loads the index (search.json, made at build time
// from the pages' text) on first focus, and lists the pages that contain every word typed.
export interface SearchProps {
  /** URL of the index, under the site's base. */
  index: string;
}

export default function Search({ index }: SearchProps) {
  return (
    <div className="search" data-index={index} data-state="off">
      <label htmlFor="search-input" className="sr-only">Search the documentation</label>
      <input id="search-input" type="search" placeholder="Search the docs" autoComplete="off"
        aria-describedby="search-status" aria-controls="search-results" />
      <p id="search-status" className="sr-only" aria-live="polite"></p>
      <ul id="search-results" className="search-results"></ul>
    </div>
  );
}
