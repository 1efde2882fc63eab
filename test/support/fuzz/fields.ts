import { ACTIONS, librarySchemas, videoCreateSchema, type Action } from '../../../shared';

/**
 * The fields of a request schema, read from the shared valibot schemas themselves, so that fuzz
 * cases put hostile values into the fields the service really reads (`Filter.GroupIds[]`,
 * `content[].image_url.url`) and follow the schemas when they change.
 */

/** A field of a request body: its path and the JSON type (and values) the schema expects. */
export interface FuzzField {
  /** Dotted path; `[]` stands for any item of a list: `Filter.GroupIds[]`, `content[].role`. */
  path: string;
  /** `string`, `number`, `boolean`, `object`, `array`, or `unknown`. */
  type: 'string' | 'number' | 'boolean' | 'object' | 'array' | 'unknown';
  /** The allowed values of a picklist or literal (for near-miss cases such as a wrong case). */
  values?: readonly unknown[];
}

/** A valibot schema as seen from outside: its `type` and the parts that hold inner schemas. */
interface SchemaNode {
  type: string;
  wrapped?: SchemaNode;
  entries?: Record<string, SchemaNode>;
  item?: SchemaNode;
  options?: readonly (SchemaNode | unknown)[];
  literal?: unknown;
}

const WRAPPERS = new Set(['optional', 'exact_optional', 'nullable', 'nullish', 'undefinedable', 'non_optional', 'non_nullable', 'non_nullish']);
const OBJECTS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);

/** Every field of `schema` (any valibot schema), depth first, each path once. */
export function schemaFields(schema: unknown, prefix = ''): FuzzField[] {
  const out = new Map<string, FuzzField>();
  const add = (field: FuzzField) => {
    if (!field.path) return;
    const seen = out.get(field.path);
    if (!seen) out.set(field.path, field);
    else if (field.values) out.set(field.path, { ...seen, values: [...(seen.values ?? []), ...field.values] });
  };
  const walk = (node: SchemaNode, path: string): void => {
    if (WRAPPERS.has(node.type) && node.wrapped) return walk(node.wrapped, path);
    if (OBJECTS.has(node.type) && node.entries) {
      add({ path, type: 'object' });
      for (const [key, entry] of Object.entries(node.entries)) walk(entry, path ? `${path}.${key}` : key);
      return;
    }
    if (node.type === 'array' && node.item) {
      add({ path, type: 'array' });
      return walk(node.item, `${path}[]`);
    }
    if ((node.type === 'variant' || node.type === 'union') && node.options) {
      for (const option of node.options) walk(option as SchemaNode, path);
      return;
    }
    if (node.type === 'picklist') return add({ path, type: 'string', values: node.options as unknown[] });
    if (node.type === 'literal') {
      const t = typeof node.literal;
      return add({ path, type: t === 'string' || t === 'number' || t === 'boolean' ? t : 'unknown', values: [node.literal] });
    }
    if (node.type === 'string' || node.type === 'number' || node.type === 'boolean') return add({ path, type: node.type });
    add({ path, type: 'unknown' });
  };
  walk(schema as SchemaNode, prefix);
  return [...out.values()];
}

/** The fields of each `/api/v3` operation (asset URLs as with `allowHttp`: the same field set). */
export const LIBRARY_FIELDS: Record<Action, FuzzField[]> = Object.fromEntries(
  ACTIONS.map((action) => [action, schemaFields(librarySchemas()[action])]),
) as Record<Action, FuzzField[]>;

/** The fields of a `POST /v1/video/generations` body, content elements included. */
export const VIDEO_CREATE_FIELDS: FuzzField[] = schemaFields(videoCreateSchema);
