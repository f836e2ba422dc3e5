// The catalogue of errors a user can cause: plain data, with no Node API, so that the package's public
// entry (which islands import in the browser) can export it for documentation.

/**
 * Every error a user can cause, in one table: its id (the key, also `Message.id`), a short title, what it
 * means in general (the message of a particular case says what and where), and the hint printed under it.
 */
export const catalogue = {
  YamlSyntaxError: { title: 'YAML syntax error', message: 'A content file (or a Markdown file\'s front matter) is not valid YAML.', hint: 'Check indentation and quoting near the line shown.' },
  ContentSchemaError: { title: 'Content does not match its schema', message: 'A field of a content file is missing, unknown or of the wrong type for its collection\'s schema.', hint: 'Fix the field named, or change the schema in the site config.' },
  ContentCheckError: { title: 'Content fails a check of the site', message: 'A check the site runs across its content (validate in sitegen.config.ts) found a problem.', hint: 'The message says what the site expects: fix the content it points at.' },
  ContentReferenceError: { title: 'Reference to an entry that does not exist', message: 'A reference() field names an id that no entry of the collection has (or the entry is a draft left out of the build).', hint: 'Write the id of an existing entry: its file path below the collection\'s folder, without the extension.' },
  TermCollision: { title: 'Two taxonomy terms share one URL', message: 'Two different terms of a taxonomy() field (e.g. "Node.js" and "nodejs") make the same slug, so they would share one page.', hint: 'Write the term the same way in every file, or change one so their URLs differ.' },
  ContentPolicyError: { title: 'Content would run as code', message: 'A content file contains raw HTML, a script URL or another construct that would execute in the page.', hint: 'Content is data: write it in Markdown, or put markup in a template.' },
  ContentReadError: { title: 'Content file cannot be read', message: 'A content file is not UTF-8 text, is too large, or cannot be read safely.', hint: 'Content files must be UTF-8 text.' },
  EmptyCollection: { title: 'Collection has no files', message: 'A collection\'s pattern matches no file under content/.', hint: 'Add a file matching the pattern, or fix the pattern in sitegen.config.ts.' },
  DuplicateRoute: { title: 'Two sources write the same page', message: 'Two routes or aliases would write the same output file.', hint: 'Give one of them another path.' },
  InvalidRoute: { title: 'Route is not valid', message: 'A route or alias path is not an absolute, clean URL path.', hint: 'Paths start with "/" and contain no spaces, "..", or query.' },
  BrokenLink: { title: 'Link to a page or file that does not exist', message: 'A page links to a path that is no route, alias or output file.', hint: 'Fix the link, add the page, or declare an alias.' },
  RenderError: { title: 'A template threw while rendering', message: 'A page component threw an exception while its route was rendered.', hint: 'The location is the line of the template (or of the site\'s code it calls) that threw; without one, the page\'s content file.' },
  IslandPropsError: { title: 'Island props are not plain JSON', message: 'An island was given props that cannot travel to the browser as JSON.', hint: 'Pass only strings, numbers, booleans, null, arrays and plain objects to islands.' },
  TemplateSyntaxError: { title: 'A template does not compile', message: 'A template (or another module the config imports) is not valid TypeScript or JSX, or imports something that does not exist, so the site cannot compile.', hint: 'Fix the code at the line shown; the message is esbuild\'s.' },
  ConfigError: { title: 'Site configuration error', message: 'The site config failed to compile or load, a template threw while it loaded, or a config function or plugin threw.', hint: 'Fix it at the location shown; without one, in sitegen.config.ts.' },
  IslandError: { title: 'An island threw in the browser', message: 'An island\'s code threw an uncaught error while it hydrated, rendered or handled an event in the browser (reported by `sitegen dev`).', hint: 'The location is mapped through the dev bundle\'s source map; fix the island and the page reloads.' },
  BundleError: { title: 'Bundling failed', message: 'esbuild could not bundle the islands or stylesheets.', hint: 'The file and line come from esbuild.' },
  OutputConflict: { title: 'A plugin output and another file have the same path', message: 'A plugin\'s outputs hook returned a path that a page, asset, static file or another plugin already writes.', hint: 'Give the plugin\'s file another path.' },
  CspBlocked: { title: 'The Content-Security-Policy blocks part of a page', message: 'A page has an inline style, an inline script or an event handler attribute, or an island instantiates WebAssembly, which the strict default policy blocks in the browser (a warning: the build goes on).', hint: 'Use a class in the stylesheet or an island instead, or allow it with the csp line of the site config shown.' },
  TypeError: { title: 'Type error in the site\'s code', message: 'TypeScript found an error in the site\'s config or templates (`sitegen check`, for a site with a tsconfig.json).', hint: 'Fix the code at the line shown; `sitegen check --no-typecheck` skips this check.' },
  ImageError: { title: 'An image cannot be published', message: 'An image a page shows (a Markdown image or an <Image> in a template) is missing, is not an image, is corrupt or truncated, has more pixels than the limit, has no alt text, or is remote from a host the site does not list.', hint: 'Fix the image or its reference at the location shown; a remote image\'s host goes in images.remote in sitegen.config.ts.' },
  StaticConflict: { title: 'A static file and a page have the same output', message: 'A file under static/ would overwrite a page, alias page or asset.', hint: 'Rename the static file or move the page.' },
} as const satisfies Record<string, { title: string; message: string; hint: string }>;

export type ErrorId = keyof typeof catalogue;
