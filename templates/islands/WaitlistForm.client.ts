// Browser behaviour of the waitlist form, without React: the same states the form always had.
// idle → submitting (button reads the submitting label, disabled; status cleared) → success (status message,
// button shows the joined label and stays disabled for data-joined-ms, then the field is cleared and the
// form is idle again; the message stays) or error (the right message, what was typed stays). Typing, or a
// submit the browser blocks, clears the message. An address the waitlist's checks would refuse is refused
// here first, with the invalid-address message. aria-invalid
// marks the field only when the email itself was refused, never for a network, key or server failure. The
// server HTML's button is disabled (so the form cannot send without this script); enhancing enables it.
// A filled honeypot looks successful and sends nothing. supabase-js starts loading on the first focus or
// hover of the form (lib/waitlist.ts imports it dynamically, so it is its own chunk).
import { acceptableEmail, buildRow, joinWaitlist, warmWaitlistClient, type UtmDefaults, type WaitlistOutcome } from '../lib/waitlist.ts';

type Phase = 'idle' | 'submitting' | 'joined';
type Status = { kind: 'success' | 'error'; text: string; invalid?: boolean } | null;

export function enhance(root: HTMLElement): void {
  const form = root.querySelector<HTMLFormElement>('form.waitlist');
  const input = form?.querySelector<HTMLInputElement>('input[name="email"]');
  const trap = form?.querySelector<HTMLInputElement>('input[name="website"]');
  const button = form?.querySelector<HTMLButtonElement>('button[type="submit"]');
  const statusLine = form?.querySelector<HTMLElement>('[role="status"]');
  if (!form || !input || !button || !statusLine) return;
  const d = form.dataset;
  const labels: Record<Phase, string> = { idle: d.idleLabel ?? button.textContent ?? '', submitting: d.submittingLabel ?? '', joined: d.joinedLabel ?? '' };
  const messages = JSON.parse(d.messages ?? '{}') as Record<WaitlistOutcome, string>;
  const utm = d.utm ? (JSON.parse(d.utm) as UtmDefaults) : undefined;
  const joinedMs = Number(d.joinedMs) || 0;

  button.disabled = false;
  let phase: Phase = 'idle';
  let status: Status = null;
  // Draws the state as the React version did: button label and disabled, status line, aria-invalid. Only
  // what changed is written, so the live region does not announce an unchanged message again.
  const setText = (el: HTMLElement, text: string) => { if (el.textContent !== text) el.textContent = text; };
  const render = (nextPhase: Phase, nextStatus: Status = status) => {
    phase = nextPhase;
    status = nextStatus;
    setText(button, labels[phase]);
    button.disabled = phase !== 'idle';
    button.classList.toggle('is-joined', phase === 'joined');
    statusLine.className = `waitlist__status${status ? ` waitlist__status--${status.kind}` : ''}`;
    setText(statusLine, status?.text ?? '');
    if (status?.kind === 'error' && status.invalid) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };

  const warm = () => { warmWaitlistClient().catch(() => {}); };
  form.addEventListener('focusin', warm);
  form.addEventListener('mouseenter', warm);

  // A message answers the address it was about: typing, or a submit the browser blocks as invalid, clears it.
  const clearStatus = () => { if (phase === 'idle' && status) render('idle', null); };
  input.addEventListener('input', clearStatus);
  input.addEventListener('invalid', clearStatus);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (phase !== 'idle') return;
    const email = input.value;
    // What the browser accepts but the waitlist would refuse gets its message here, without a request.
    if (!trap?.value && !acceptableEmail(email.trim())) {
      render('idle', { kind: 'error', text: messages.invalid, invalid: true });
      return;
    }
    render('submitting', null);
    // A bot filled the hidden field: look successful, send nothing.
    const { outcome, invalidEmail } = trap?.value ? { outcome: 'success' as const, invalidEmail: false } : await joinWaitlist(buildRow(email, d.form ?? '', utm));
    if (outcome === 'success') {
      render('joined', { kind: 'success', text: messages.success });
      setTimeout(() => { input.value = ''; render('idle'); }, joinedMs);
    } else {
      render('idle', { kind: 'error', text: messages[outcome], invalid: invalidEmail });
    }
  });
}
