// What both demo form islands share: a hook that validates fields against their piece of a zod schema
// (an error shows only once the field was touched: left, or the form submitted) and a labelled field with
// its help and error text wired to the control through aria-describedby / aria-invalid.
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { z } from 'zod';
import { fieldError, formErrors, type DemoField } from '../../schemas/demo.ts';

/** Words every demo form island gets from content/demo/forms.yaml. */
export interface DemoFormText {
  submit: string;
  submitting: string;
  successMessage: string;
  requiredNote: string;
  submitDelayMs: number;
}

/** Flat form values keyed by dotted path ("address.city") → the nested object the schema expects. */
export function nest(flat: Record<string, string>): Record<string, unknown> {
  const out: Record<string, any> = {};
  for (const [path, value] of Object.entries(flat)) {
    const keys = path.split('.');
    const last = keys.pop()!;
    let node = out;
    for (const k of keys) node = node[k] ??= {};
    node[last] = value;
  }
  return out;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function useSchemaForm(schema: z.ZodObject, initial: Record<string, string>, text: DemoFormText) {
  const base = useId();
  const order = Object.keys(initial); // the fields in page order, to focus the first invalid one
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitting, setSubmitting] = useState(false);
  const busy = useRef(false); // a second submit before React re-renders must not slip through
  // Until hydrated the submit button is disabled: without JavaScript the form cannot send what was typed
  // anywhere (the demo promises the values stay in the browser). Once hydrated the schema validates.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const idOf = (path: string) => `${base}${path.replaceAll('.', '-')}`;
  // Re-checked on every change once touched, so a fixed field clears its error as the visitor types.
  const errorOf = (path: string) => (touched[path] ? fieldError(schema, path, values[path]) : null);

  function bind(path: string) {
    const id = idOf(path);
    const error = errorOf(path);
    return {
      id,
      error,
      errorId: `${id}-error`,
      helpId: `${id}-help`,
      control: {
        id,
        name: path,
        value: values[path] ?? '',
        required: true,
        onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [path]: e.target.value })),
        onBlur: () => setTouched((t) => (t[path] ? t : { ...t, [path]: true })),
      },
    };
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy.current) return;
    const errors = formErrors(schema, nest(values));
    setTouched(Object.fromEntries(order.map((p) => [p, true])));
    const first = order.find((p) => errors[p]);
    if (first) { document.getElementById(idOf(first))?.focus(); return; }
    busy.current = true;
    setSubmitting(true);
    try {
      await wait(text.submitDelayMs);
      console.log(schema.parse(nest(values)));
      window.alert(text.successMessage);
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  }

  return { bind, onSubmit, submitting, hydrated, noValidate: hydrated };
}

export type FieldBinding = ReturnType<ReturnType<typeof useSchemaForm>['bind']>;

export type ControlProps = FieldBinding['control'] & { 'aria-invalid'?: true; 'aria-describedby'?: string; placeholder?: string };

/** Label, the control (a render function given its value, handlers and ARIA wiring), optional help, the error.
 *  Help sits below the control so side-by-side controls line up. The error line is always there (empty until
 *  needed) so a message appearing on blur does not push the Submit button away mid-click. */
export function Field({ field, text, children }: { field: FieldBinding; text: DemoField; children: (control: ControlProps) => ReactNode }) {
  const describedBy = [text.help ? field.helpId : null, field.error ? field.errorId : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={field.id}>{text.label}</label>
      {children({ ...field.control, 'aria-invalid': field.error ? true : undefined, 'aria-describedby': describedBy || undefined, placeholder: text.placeholder })}
      {text.help ? <p id={field.helpId} className="field__help">{text.help}</p> : null}
      <p id={field.errorId} className="field__error">{field.error}</p>
    </div>
  );
}

/** Opens the form: the note that every field is required, read before the first field. */
export function RequiredNote({ text }: { text: DemoFormText }) {
  return <p className="demo-form__note muted">{text.requiredNote}</p>;
}

/** The submit button: disabled until the island has hydrated (so the server HTML cannot send, as the waitlist
 *  form), and disabled (and relabelled) while the submit runs. */
export function SubmitButton({ text, submitting, ready }: { text: DemoFormText; submitting: boolean; ready: boolean }) {
  return (
    <div className="demo-form__actions">
      <button type="submit" className="btn btn--primary" disabled={submitting || !ready}>{submitting ? text.submitting : text.submit}</button>
    </div>
  );
}
