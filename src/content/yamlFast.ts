// The fast reading of a content file's YAML: js-yaml builds plain values about eight times faster than the
// `yaml` package builds its Document with source positions (1,000 front matters of the bench content:
// ~55 ms against ~430 ms on a cold start), and a build only needs positions when something is wrong. So
// YAML is read here first, and the positioned Document (yamlSource.ts) is made only when a location is
// asked for (a schema error) or when this reader declines.
//
// It declines (undefined), leaving the file to the `yaml` package exactly as before, whenever it could
// disagree with it:
// - anchors and aliases (`&name`, `*name` where a node can start; "R&D" and "Brick & Mortar" are text):
//   the `yaml` package copies aliases and refuses alias bombs (maxAliasCount); js-yaml shares one object,
//   which a schema would walk again and again;
// - a complex key (`? `), a flow collection or a null (`~`, `null`, nothing) as a key, and explicit core
//   tags (`!!float 1`): the two libraries turn those into different values;
// - a sequence nested on its parent's line (`- - a`): js-yaml misreads the lines after `- -`;
// - anything js-yaml refuses (a syntax error, a duplicate key, an unknown tag): the `yaml` package then
//   reports it with its line, as it always did.
// Plain scalars are resolved with the YAML 1.2 core schema, the schema the `yaml` package uses (null,
// bool, int in base 10, 0o octal and 0x hex, float, .inf, .nan), never js-yaml's YAML 1.1 extras
// (timestamps, binary, `1_000`, `0b1`). Tested against the `yaml` package on every content file of the
// repository and a corpus of edge cases (tests/unit/yaml-fast.test.ts).
import jsyaml from 'js-yaml';

const scalar = (tag: string, resolve: (s: string) => boolean, construct: (s: string) => unknown) =>
  new jsyaml.Type(`tag:yaml.org,2002:${tag}`, { kind: 'scalar', resolve: (s: string | null) => resolve(s ?? ''), construct: (s: string | null) => construct(s ?? '') });

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_DEC = /^[-+]?[0-9]+$/;
const INT_OCT = /^0o[0-7]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

const intOf = (s: string) => (INT_OCT.test(s) ? parseInt(s.slice(2), 8) : INT_HEX.test(s) ? parseInt(s.slice(2), 16) : parseInt(s, 10));
const floatOf = (s: string) => (FLOAT_SPECIAL.test(s) ? (/nan$/i.test(s) ? NaN : s.startsWith('-') ? -Infinity : Infinity) : parseFloat(s));

/** YAML 1.2's core schema on js-yaml's failsafe one (strings, sequences, mappings). */
const CORE_1_2 = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar('null', (s) => NULL.test(s), () => null),
    scalar('bool', (s) => BOOL.test(s), (s) => s[0] === 't' || s[0] === 'T'),
    scalar('int', (s) => INT_DEC.test(s) || INT_OCT.test(s) || INT_HEX.test(s), intOf),
    scalar('float', (s) => FLOAT.test(s) || FLOAT_SPECIAL.test(s), floatOf),
  ],
});

/**
 * What may make the two readers differ (see above): the file then goes to the `yaml` package. Read in
 * linear time whatever the text (a quoted string of 400 KB of `[` once took minutes): a flow collection as
 * a key is looked for from its last opening bracket on the line (one before it would match only if this
 * one does), and a null key's spaces are read only after a null word (without one, the space just before
 * the colon is the character before it), so no character is read again from every place a match may start.
 */
export const DECLINE = /(?:^|[\s[{,])[&*]\S|!!|^[ \t]*-[ \t]+-(?:[ \t]|$)|(?:^|[\s,[{])\?(?:\s|$)|[[{][^\]}\n[{]*[\]}]\s*:|(?:^|[\s,[{])(?:(?:~|[Nn]ull|NULL)\s*)?:(?:\s|$)/m;

/**
 * The value of a YAML text as the `yaml` package's toJS() gives it, or undefined when this reader cannot
 * vouch for that (the caller then parses with positions and reports any problem located).
 */
export function fastYaml(text: string): { value: unknown } | undefined {
  if (DECLINE.test(text)) return undefined;
  try {
    return { value: jsyaml.load(text, { schema: CORE_1_2 }) ?? null }; // an empty text is null, as for `yaml`
  } catch {
    return undefined;
  }
}
