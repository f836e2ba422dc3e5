// The two demo form pages: a short heading and intro saying what the demo shows, then the form island, and
// (without JavaScript, when the island's submit button stays disabled) a line saying the demo needs it.
import type { ReactNode } from 'react';
import type { DemoForms } from '../../schemas/demo.ts';
import { Badge } from '../../components/ui.tsx';
import DemoSimpleForm from '../../islands/DemoSimpleForm.tsx';
import DemoAddressForm from '../../islands/DemoAddressForm.tsx';
import type { DemoFormText } from './formKit.tsx';

type PageText = DemoForms['simple'] | DemoForms['address'];

function DemoShell({ page, noScript, children }: { page: PageText; noScript: string; children: ReactNode }) {
  return (
    <section className="section demo-page" aria-labelledby="demo-title">
      <div className="container--narrow">
        <Badge>{page.badge}</Badge>
        <h1 id="demo-title" className="demo-page__title">{page.heading}</h1>
        <p className="lead">{page.intro}</p>
        <div className="card demo-page__card">
          {children}
          <noscript><p className="demo-page__noscript">{noScript}</p></noscript>
        </div>
      </div>
    </section>
  );
}

/** The words every form island takes from the shared part of content/demo/forms.yaml. */
export function formText(forms: DemoForms, page: PageText): DemoFormText {
  return { submit: page.submit, submitting: forms.submitting, successMessage: forms.successMessage, requiredNote: forms.requiredNote, submitDelayMs: forms.submitDelayMs };
}

export function SimpleFormPage({ forms }: { forms: DemoForms }) {
  return (
    <DemoShell page={forms.simple} noScript={forms.noScript}>
      <DemoSimpleForm {...formText(forms, forms.simple)} fields={forms.simple.fields} />
    </DemoShell>
  );
}

export function AddressFormPage({ forms }: { forms: DemoForms }) {
  const a = forms.address;
  return (
    <DemoShell page={a} noScript={forms.noScript}>
      <DemoAddressForm {...formText(forms, a)} fields={a.fields} countryPlaceholder={a.countryPlaceholder} countries={a.countries} />
    </DemoShell>
  );
}
