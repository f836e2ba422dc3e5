// The page components the routes in sitegen.config.ts render.
import { href } from 'sitegen-islands';
import Counter from './islands/Counter.tsx';

export interface PostSummary { slug: string; title: string; date: Date; description: string; draft: boolean }

// One formatter for every date: toLocaleDateString makes a new one each call (a list of 10,000 posts: over a second).
const DATE = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const formatDate = (d: Date) => DATE.format(new Date(d));
const isoDate = (d: Date) => new Date(d).toISOString().slice(0, 10);

function PostList({ posts }: { posts: PostSummary[] }) {
  return (
    <ul className="posts">
      {posts.map((p) => (
        <li key={p.slug}>
          <a href={href(`/posts/${p.slug}/`)}>{p.title}</a> <time dateTime={isoDate(p.date)}>{formatDate(p.date)}</time>
          {/* Drafts only appear in `sitegen dev` (and `sitegen build --drafts`). */}
          {p.draft ? <> <mark>draft</mark></> : null}
          <p>{p.description}</p>
        </li>
      ))}
    </ul>
  );
}

export function Home({ posts, prev, next }: { posts: PostSummary[]; prev: string | null; next: string | null }) {
  return (
    <>
      <h1>My site</h1>
      <PostList posts={posts} />
      {prev || next ? (
        <nav className="pages">
          {prev ? <a href={prev} rel="prev">Newer posts</a> : null} {next ? <a href={next} rel="next">Older posts</a> : null}
        </nav>
      ) : null}
      <p><a href={href('/tags')}>All tags</a></p>
      <Counter start={0} label="Clicks" hydrate="visible" />
    </>
  );
}

export function Tags({ tags }: { tags: { term: string; path: string; count: number }[] }) {
  return (
    <>
      <h1>Tags</h1>
      <ul>{tags.map((t) => <li key={t.path}><a href={href(t.path)}>{t.term}</a> ({t.count})</li>)}</ul>
    </>
  );
}

export function Tag({ term, posts }: { term: string; posts: PostSummary[] }) {
  return (
    <>
      <h1>Posts tagged {term}</h1>
      <PostList posts={posts} />
      <p><a href={href('/tags')}>All tags</a></p>
    </>
  );
}

export function Post({ title, date, entry }: { title: string; date: Date; entry: { html?: string } }) {
  return (
    <article>
      <h1>{title}</h1>
      <p><time dateTime={isoDate(date)}>{formatDate(date)}</time></p>
      {/* The Markdown of the post, rendered at build time. */}
      <div dangerouslySetInnerHTML={{ __html: entry.html ?? '' }} />
      <p><a href={href('/')}>All posts</a></p>
    </article>
  );
}

export function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p><a href={href('/')}>Back to the home page</a></p>
    </>
  );
}
