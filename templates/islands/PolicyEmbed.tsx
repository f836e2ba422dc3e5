// The policy embed (an island). Injects the policy host's script, which fills the container with the
// hosted document. Meanwhile a loading overlay shows progress that runs to the cap over the loader time;
// the container is polled for content, and once it is there (or the timeout forces it) the bar steps to
// 100 and the overlay goes. Policies seen before (localStorage "policy-storage") skip the overlay.
// If the script cannot load, the hosted document's link is shown prominently instead.
// All timings come from site.yaml through props. The server HTML is the no-JS view: container + link.
import { useEffect, useRef, useState } from 'react';

export interface PolicyEmbedProps {
  /** The document id at the policy host, e.g. "terms". */
  id: string;
  /** The document language at the host, e.g. "en-us". */
  language: string;
  scriptUrl: string;
  /** The hosted document, for visitors without JavaScript or when the script is blocked. */
  documentUrl: string;
  timing: { loaderMs: number; pollMs: number; timeoutMs: number; cap: number; step: number; stepMs: number };
  labels: { viewer: string; loading: string; progress: string; fallbackLead: string; fallbackLink: string; failed: string };
}

export const POLICY_STORAGE_KEY = 'policy-storage';
interface PolicyStorage { scriptLoaded: boolean; loaded: string[] }

function readStorage(): PolicyStorage {
  try {
    const v = JSON.parse(localStorage.getItem(POLICY_STORAGE_KEY) ?? 'null');
    return { scriptLoaded: v?.scriptLoaded === true, loaded: Array.isArray(v?.loaded) ? v.loaded.filter((x: unknown) => typeof x === 'string') : [] };
  } catch {
    return { scriptLoaded: false, loaded: [] }; // unreadable or disabled storage: behave as a first visit
  }
}

function updateStorage(change: (s: PolicyStorage) => PolicyStorage): void {
  try { localStorage.setItem(POLICY_STORAGE_KEY, JSON.stringify(change(readStorage()))); } catch { /* private mode or full: nothing to remember */ }
}

/** static: server HTML; loading/finishing: overlay runs; ready: content shown; stalled: forced ready with nothing shown; failed: script error. */
type Phase = 'static' | 'loading' | 'finishing' | 'ready' | 'stalled' | 'failed';

export default function PolicyEmbed(p: PolicyEmbedProps) {
  const container = useRef<HTMLElement>(null);
  const [phase, setPhase] = useState<Phase>('static');
  const [overlay, setOverlay] = useState(false);
  const [progress, setProgress] = useState(0);

  useEffect(() => {
    const box = container.current;
    if (!box) return;
    const t = p.timing;
    setOverlay(!readStorage().loaded.includes(p.id));
    setPhase('loading');
    const start = performance.now();
    let value = 0;
    let settled = false;
    let stepper: ReturnType<typeof setInterval> | undefined;
    const show = (n: number) => { value = n; setProgress(n); };
    // The host's script renders into the container; any element child means the document is there.
    const hasContent = () => box.childElementCount > 0;

    const stop = () => { settled = true; clearInterval(poll); clearTimeout(timeout); };
    const finish = (seen: boolean) => {
      if (settled) return;
      stop();
      // Only a document actually seen counts as loaded: a forced-ready page should show the loader next time too.
      if (seen) updateStorage((s) => ({ scriptLoaded: true, loaded: s.loaded.includes(p.id) ? s.loaded : [...s.loaded, p.id] }));
      setPhase('finishing');
      stepper = setInterval(() => {
        show(Math.min(100, value + t.step));
        if (value >= 100) { clearInterval(stepper); setPhase(seen ? 'ready' : 'stalled'); }
      }, t.stepMs);
    };
    const fail = () => {
      if (settled) return;
      stop();
      updateStorage((s) => ({ ...s, scriptLoaded: false }));
      setPhase('failed');
    };

    const poll = setInterval(() => {
      if (hasContent()) return finish(true);
      show(Math.floor(Math.min(1, (performance.now() - start) / t.loaderMs) * t.cap));
    }, t.pollMs);
    const timeout = setTimeout(() => finish(hasContent()), t.timeoutMs);

    const script = document.createElement('script');
    script.src = p.scriptUrl;
    script.async = true;
    script.dataset.id = p.id;
    script.dataset.lang = p.language;
    script.onload = () => updateStorage((s) => ({ ...s, scriptLoaded: true }));
    script.onerror = fail;
    if (navigator.onLine === false) fail();
    else document.body.appendChild(script);

    return () => { stop(); clearInterval(stepper); script.remove(); };
  }, [p.id, p.scriptUrl, p.language, p.timing]);

  const loading = phase === 'loading' || phase === 'finishing';
  const trouble = phase === 'failed' || phase === 'stalled';
  return (
    <div className="policy-embed" data-phase={phase}>
      <div className="policy-embed__frame">
        {/* React renders no children here, so it never touches what the host's script inserts. */}
        <section
          ref={container} className="policy-embed__content" aria-label={p.labels.viewer}
          aria-busy={loading && overlay ? true : undefined} data-policy-embed="" data-id={p.id} data-lang={p.language}
        />
        {loading && overlay ? (
          <div className="policy-embed__overlay">
            <p className="policy-embed__loading" id={`${p.id}-loading`}>{p.labels.loading}</p>
            <progress className="policy-embed__bar" max={100} value={progress} aria-labelledby={`${p.id}-loading`} aria-valuetext={`${progress}%`} />
            <span className="policy-embed__pct" aria-hidden="true">{progress}%</span>
          </div>
        ) : null}
      </div>
      {trouble ? (
        <div className="notice policy-embed__failed" role="alert">
          <p>{p.labels.failed}</p>
          <a className="btn btn--primary" href={p.documentUrl} rel="noopener">{p.labels.fallbackLink}</a>
        </div>
      ) : (
        <p className="policy-embed__fallback">{p.labels.fallbackLead} <a href={p.documentUrl} rel="noopener">{p.labels.fallbackLink}</a></p>
      )}
    </div>
  );
}
