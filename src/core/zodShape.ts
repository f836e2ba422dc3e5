// What the engine reads of a site's zod schema without running it: an object schema's keys (a component's
// attributes, a collection's fields) and a field's own type under optional(), default() and the like.

/** The keys of a zod object schema (null for another kind of schema). */
export function schemaKeys(schema: unknown): string[] | null {
  const s = schema as { shape?: unknown; _zod?: { def?: { shape?: unknown } } };
  const shape = s?._zod?.def?.shape ?? s?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : null;
}

type Def = { type?: string; innerType?: unknown; shape?: Record<string, unknown>; values?: unknown[]; catchall?: unknown; unknownKeys?: string };
type Zod3Def = { typeName?: string; innerType?: unknown; shape?: () => Record<string, unknown>; value?: unknown; catchall?: unknown; unknownKeys?: string };
/** A schema's definition: zod 4's (`_zod.def`), or zod 3's (`_def`, its `typeName` read as zod 4's `type`). */
const defOf = (v: unknown): Def | undefined => {
  const four = (v as { _zod?: { def?: Def } })?._zod?.def;
  if (four) return four;
  const three = (v as { _def?: Zod3Def })?._def;
  if (!three?.typeName) return undefined;
  const type = three.typeName.replace(/^Zod/, '').toLowerCase();
  return { type: type === 'effects' ? 'pipe' : type, innerType: three.innerType, shape: typeof three.shape === 'function' ? three.shape() : undefined, values: 'value' in three ? [three.value] : undefined, catchall: three.catchall, unknownKeys: three.unknownKeys };
};

/** A field's zod type ('boolean', 'string', …) under optional(), default() and the like; '' when unknown. */
export function fieldType(schema: unknown, key: string): string {
  let def = defOf((defOf(schema)?.shape ?? (schema as { shape?: Record<string, unknown> })?.shape)?.[key]);
  while (def && ['optional', 'nonoptional', 'default', 'prefault', 'nullable', 'readonly', 'catch'].includes(def.type ?? '')) def = defOf(def.innerType);
  // (a literal that may be true — z.literal(true) — marks as a boolean does)
  if (def?.type === 'literal' && def.values?.includes(true)) return 'boolean';
  return def?.type ?? '';
}

/** Whether an object schema takes keys beyond its shape (z.looseObject, .catchall(), zod 3's .passthrough()). */
export function takesOtherKeys(schema: unknown): boolean {
  const def = defOf(schema);
  const catchall = defOf(def?.catchall);
  return (!!catchall && catchall.type !== 'never') || def?.unknownKeys === 'passthrough';
}
