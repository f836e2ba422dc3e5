// The page components the routes in sitegen.config.ts render.
import { href, Image, type ContentImage } from 'sitegen-islands';

/** What a list shows of a post. */
export interface PostSummary {
  path: string;
  title: string;
  date: Date;
  author: string;
  /** The text before `<!-- more -->`, else the first paragraph. */
  excerpt: string;
  readingMinutes: number;
  tags: string[];
  draft: boolean;
}

/** Tag → its page's path, from taxonomy() in the config. */
type TagPaths = Record<string, string>;

// One formatter for every date: toLocaleDateString makes a new one each call (a list of 10,000 posts: over a second).
const DATE = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const formatDate = (d: Date) => DATE.format(new Date(d));
const isoDate = (d: Date) => new Date(d).toISOString().slice(0, 10);

function Byline({ post }: { post: PostSummary }) {
  return (
    <p className="byline">
      <time dateTime={isoDate(post.date)}>{formatDate(post.date)}</time>
      {' · '}{post.author}{' · '}{post.readingMinutes} min read
      {/* Drafts only appear in `sitegen dev` (and `sitegen build --drafts`). */}
      {post.draft ? <>{' · '}<mark>draft</mark></> : null}
    </p>
  );
}

function TagList({ tags, tagPath }: { tags: string[]; tagPath: TagPaths }) {
  if (!tags.length) return null;
  return (
    <ul className="tags">
      {tags.map((t) => <li key={t}>{tagPath[t] ? <a href={href(tagPath[t])}>#{t}</a> : `#${t}`}</li>)}
    </ul>
  );
}

function PostList({ posts, tagPath }: { posts: PostSummary[]; tagPath: TagPaths }) {
  return (
    <ol className="posts">
      {posts.map((p) => (
        <li key={p.path}>
          <article>
            <h2><a href={href(p.path)}>{p.title}</a></h2>
            <Byline post={p} />
            <p>{p.excerpt}</p>
            <TagList tags={p.tags} tagPath={tagPath} />
          </article>
        </li>
      ))}
    </ol>
  );
}

export function Home({ posts, page, pages, prev, next, tagPath }: { posts: PostSummary[]; page: number; pages: number; prev: string | null; next: string | null; tagPath: TagPaths }) {
  return (
    <>
      <h1>{page === 1 ? 'Latest posts' : `Posts, page ${page} of ${pages}`}</h1>
      <PostList posts={posts} tagPath={tagPath} />
      {prev || next ? (
        <nav className="pagination" aria-label="Pages of posts">
          {prev ? <a href={prev} rel="prev">← Newer posts</a> : <span />}
          <span>Page {page} of {pages}</span>
          {next ? <a href={next} rel="next">Older posts →</a> : <span />}
        </nav>
      ) : null}
    </>
  );
}

export function Tags({ tags }: { tags: { term: string; path: string; count: number }[] }) {
  return (
    <>
      <h1>Tags</h1>
      <ul className="tag-index">
        {tags.map((t) => <li key={t.path}><a href={href(t.path)}>#{t.term}</a> <span>{t.count} {t.count === 1 ? 'post' : 'posts'}</span></li>)}
      </ul>
    </>
  );
}

export function Tag({ term, posts, tagPath }: { term: string; posts: PostSummary[]; tagPath: TagPaths }) {
  return (
    <>
      <h1>Posts tagged “{term}”</h1>
      <PostList posts={posts} tagPath={tagPath} />
      <p><a href={href('/tags')}>All tags</a></p>
    </>
  );
}

type Heading = { depth: number; text: string; id?: string };

export function Post({ post, bio, cover, entry, tagPath }: { post: PostSummary; bio: string | null; cover: { image: ContentImage; alt: string } | null; entry: { html?: string; headings?: readonly Heading[] }; tagPath: TagPaths }) {
  // A table of contents of the post's sections (its ## headings, which have ids: markdown({ headingIds: true })).
  const sections = (entry.headings ?? []).filter((h) => h.depth === 2 && h.id);
  return (
    <article className="post">
      <header>
        <h1>{post.title}</h1>
        <Byline post={post} />
        <TagList tags={post.tags} tagPath={tagPath} />
      </header>
      {/* The cover named in the front matter: the page's main image, so it loads first (priority), as wide as
          the column (images.sizes in sitegen.config.ts). */}
      {cover ? <Image src={cover.image} alt={cover.alt} priority className="cover" /> : null}
      {sections.length >= 2 ? (
        <nav className="toc" aria-label="In this post">
          <p className="toc-title">In this post</p>
          <ol>{sections.map((h) => <li key={h.id}><a href={`#${h.id}`}>{h.text}</a></li>)}</ol>
        </nav>
      ) : null}
      {/* The Markdown of the post, rendered at build time. */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: entry.html ?? '' }} />
      <footer className="author">
        <p><strong>{post.author}</strong>{bio ? ` — ${bio}` : null}</p>
        <p><a href={href('/')}>← All posts</a></p>
      </footer>
    </article>
  );
}

export function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p><a href={href('/')}>Back to the latest posts</a></p>
    </>
  );
}
