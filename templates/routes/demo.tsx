// Page group "demo": the two demo form routes. They show accessible validated forms, are not part of the
// marketing site's story, so they are noindex and left out of the sitemap.
import { defineRoutes, type CollectionConfig, type Content, type RouteDef } from 'sitegen-islands';
import { DemoFormsSchema, type DemoForms } from '../schemas/demo.ts';
import { SimpleFormPage, AddressFormPage } from '../pages/demo/DemoFormPage.tsx';

const SOURCE = 'content/demo/forms.yaml';

export const collections: Record<string, CollectionConfig> = {
  demoForms: { pattern: 'demo/forms.yaml', schema: DemoFormsSchema, single: true },
};

export function routes(content: Content): RouteDef[] {
  const forms = content.demoForms as DemoForms; // a single collection is its file's data
  return defineRoutes([
    { path: '/demo/form/simple', component: SimpleFormPage, props: { forms }, title: forms.simple.title, description: forms.simple.description, source: SOURCE, noindex: true },
    { path: '/demo/form/address', component: AddressFormPage, props: { forms }, title: forms.address.title, description: forms.address.description, source: SOURCE, noindex: true },
  ]);
}
