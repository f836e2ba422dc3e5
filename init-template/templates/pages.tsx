// The page components the routes in sitegen.config.ts render.
import Counter from './islands/Counter.tsx';

export interface PostSummary { slug: string; title: string; date: Date; description: string }

const formatDate = (d: Date) => new Date(d).toLocaleDateString('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const isoDate = (d: Date) => new Date(d).toISOString().slice(0, 10);

export function Home({ posts }: { posts: PostSummary[] }) {
  return (
    <>
      <h1>My site</h1>
      <ul className="posts">
        {posts.map((p) => (
          <li key={p.slug}>
            <a href={`/posts/${p.slug}/`}>{p.title}</a> <time dateTime={isoDate(p.date)}>{formatDate(p.date)}</time>
            <p>{p.description}</p>
          </li>
        ))}
      </ul>
      <Counter start={0} label="Clicks" hydrate="visible" />
    </>
  );
}

export function Post({ title, date, html }: { title: string; date: Date; html: string }) {
  return (
    <article>
      <h1>{title}</h1>
      <p><time dateTime={isoDate(date)}>{formatDate(date)}</time></p>
      {/* The Markdown of the post, rendered at build time. */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
      <p><a href="/">All posts</a></p>
    </article>
  );
}

export function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p><a href="/">Back to the home page</a></p>
    </>
  );
}
