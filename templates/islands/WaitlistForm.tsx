// The waitlist form (server HTML). WaitlistForm.client.ts runs it in the browser without React: idle →
// submitting → success (disabled for the confirmation time, then cleared) or error (what the visitor typed
// stays). The status line is announced to screen readers. No props reach the browser, so the form carries
// what the script needs in data-* attributes. Ids come from the server's useId, which the island's prefix
// keeps unique when a page has several forms; the home hero's form is #join (the header links to it).
// Without JavaScript the form cannot send: its button is disabled until the script enables it (a disabled
// default button also stops Enter from submitting), it would POST rather than put the email in a URL, and
// a <noscript> line tells the visitor to turn JavaScript on or to email us.
import { useId } from 'react';
import type { UtmDefaults, WaitlistOutcome } from '../lib/waitlist.ts';
import { JOIN_ANCHOR } from '../lib/props.ts';

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
  /** The line shown when JavaScript is off: `text` followed by a mailto link to `email`. */
  noScript?: { text: string; email: string };
}

export default function WaitlistForm(p: WaitlistFormProps) {
  const id = useId();
  return (
    <form
      id={p.form === JOIN_ANCHOR.form ? JOIN_ANCHOR.id : `${id}-form`} method="post"
      className="waitlist" aria-describedby={`${id}-status`}
      data-form={p.form} data-idle-label={p.idleLabel} data-submitting-label={p.submittingLabel} data-joined-label={p.joinedLabel}
      data-joined-ms={p.joinedMs} data-messages={JSON.stringify(p.messages)} data-utm={p.utm ? JSON.stringify(p.utm) : undefined}
    >
      <div className="waitlist__row">
        <label htmlFor={`${id}-email`} className="visually-hidden">{p.label}</label>
        <input
          id={`${id}-email`} className="waitlist__input" type="email" name="email" required autoComplete="email"
          placeholder={p.placeholder} defaultValue=""
        />
        <div className="waitlist__trap" aria-hidden="true">
          <label htmlFor={`${id}-website`}>Leave this field empty</label>
          <input id={`${id}-website`} type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <button type="submit" className="btn btn--primary" disabled>{p.idleLabel}</button>
      </div>
      <p id={`${id}-status`} role="status" aria-live="polite" className="waitlist__status"></p>
      {p.noScript ? <noscript><p className="waitlist__noscript">{p.noScript.text} <a href={`mailto:${p.noScript.email}`}>{p.noScript.email}</a>.</p></noscript> : null}
      {p.note ? <p className="waitlist__note">{p.note}</p> : null}
    </form>
  );
}
