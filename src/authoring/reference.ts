// reference(): a field that names an entry of another collection by its id ("ada-l"). The schema keeps a
// marker where the id was; once every collection is validated, resolveReferences() (finish.ts) replaces each
// marker with the entry it names — so routes get `post.data.author.data.name` — or reports a dangling id at
// the field that holds it, with the closest id. The marker is a plain object (no class, no symbol): parse
// results travel between threads and through the content cache.
import { z } from 'zod';
import type { CollectionConfig, Entry } from '../core/types.ts';

export const REFERENCE_KEY = 'sitegen:reference';

export interface ReferenceMarker { [REFERENCE_KEY]: string; id: string }

export function isReference(v: unknown): v is ReferenceMarker {
  return typeof v === 'object' && v !== null && typeof (v as Record<string, unknown>)[REFERENCE_KEY] === 'string' && typeof (v as ReferenceMarker).id === 'string';
}

/**
 * What a reference field holds in routes(): the entry, typed from the collection given (or `unknown` data).
 * The data type is the schema's output read off it, not inferred by matching the schema against ZodType<T>:
 * that match makes TypeScript measure the variance of zod's classes, a second of every type check.
 */
export type ReferencedEntry<C> = C extends { schema: infer S extends z.ZodType } ? Entry<z.output<S>> : Entry<unknown>;

/**
 * A field that holds the id of an entry of `collection` (written as a string in the content). Pass the
 * collection's config too (`reference('authors', authors)`, from defineCollection) to type the entry.
 */
export function reference<C extends CollectionConfig<any> | undefined = undefined>(collection: string, _config?: C): z.ZodType<ReferencedEntry<C>, string> {
  if (typeof collection !== 'string' || !collection) throw new Error(`reference(): name the collection the field refers to, got ${JSON.stringify(collection)}`);
  return z.string().min(1).transform((id): ReferenceMarker => ({ [REFERENCE_KEY]: collection, id })) as unknown as z.ZodType<ReferencedEntry<C>, string>;
}
