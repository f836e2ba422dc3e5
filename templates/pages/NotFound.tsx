// The 404 screen: served for every unknown path.
export function NotFoundPage({ title, message, back }: { title: string; message: string; back: string }) {
  return (
    <section className="hero hero--center not-found" aria-labelledby="nf-title">
      <div className="container">
        <span className="badge">404</span>
        <h1 id="nf-title">{title}</h1>
        <p className="lead">{message}</p>
        <a className="btn btn--primary" href="/">{back}</a>
      </div>
    </section>
  );
}
