// The waitlist form (an island): idle → submitting → success (disabled for the confirmation time, then
// cleared) or error (what the visitor typed stays). The status line is announced to screen readers.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { buildRow, joinWaitlist, warmWaitlistClient, type UtmDefaults, type WaitlistOutcome } from '../lib/waitlist.ts';

export interface WaitlistFormProps {
  /** Which form this is, stored in the row's metadata (e.g. "home-hero", "sector:online/saas"). */
  form: string;
  idleLabel: string;
  submittingLabel: string;
  joinedLabel: string;
  label: string;
  placeholder: string;
  messages: Record<WaitlistOutcome, string>;
  joinedMs: number;
  note?: string;
  utm?: UtmDefaults;
}

type Phase = 'idle' | 'submitting' | 'joined';

export default function WaitlistForm(p: WaitlistFormProps) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const trap = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => { if (timer.current) clearTimeout(timer.current); }, []);

  const warm = () => { warmWaitlistClient().catch(() => {}); };

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (phase !== 'idle') return;
    setPhase('submitting');
    setStatus(null);
    // A bot filled the hidden field: look successful, send nothing.
    const outcome: WaitlistOutcome = trap.current?.value ? 'success' : await joinWaitlist(buildRow(email, p.form, p.utm));
    if (outcome === 'success') {
      setPhase('joined');
      setStatus({ kind: 'success', text: p.messages.success });
      timer.current = setTimeout(() => { setEmail(''); setPhase('idle'); }, p.joinedMs);
    } else {
      setPhase('idle');
      setStatus({ kind: 'error', text: p.messages[outcome] });
    }
  }

  const label = phase === 'submitting' ? p.submittingLabel : phase === 'joined' ? p.joinedLabel : p.idleLabel;
  return (
    <form className="waitlist" onSubmit={onSubmit} onFocus={warm} onMouseEnter={warm} aria-describedby={`${id}-status`}>
      <div className="waitlist__row">
        <label htmlFor={`${id}-email`} className="visually-hidden">{p.label}</label>
        <input
          id={`${id}-email`} className="waitlist__input" type="email" name="email" required autoComplete="email"
          placeholder={p.placeholder} value={email} onChange={(e) => setEmail(e.target.value)}
          aria-invalid={status?.kind === 'error' ? true : undefined}
        />
        <div className="waitlist__trap" aria-hidden="true">
          <label htmlFor={`${id}-website`}>Leave this field empty</label>
          <input id={`${id}-website`} ref={trap} type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <button type="submit" className="btn btn--primary" disabled={phase !== 'idle'}>{label}</button>
      </div>
      <p id={`${id}-status`} role="status" aria-live="polite" className={`waitlist__status${status ? ` waitlist__status--${status.kind}` : ''}`}>{status?.text ?? ''}</p>
      {p.note ? <p className="waitlist__note">{p.note}</p> : null}
    </form>
  );
}
