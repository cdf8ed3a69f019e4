import config from '../../../config/mcp-tool-definitions.json' with { type: 'json' };

/** One piece of text of a tool definition that the model will read, and where it sits. */
export interface TextField {
  /** `name`, `title`, `description`, `inputSchema.properties.notes.description`, … */
  field: string;
  text: string;
}

export interface CollectedFields {
  fields: TextField[];
  /** Property names and enum values of the schema: words a description may name without naming another tool. */
  vocabulary: string[];
  /** Why the definition could not be read within the bounds, when it could not. */
  oversized?: string;
}

const { maxFieldChars, maxFieldsPerTool, maxSchemaDepth } = config.limits;

/**
 * Every text of an input schema the model sees: `description` and `title` at every level, property names, string
 * enum values, string defaults and examples. Walks `properties`, `items`, `additionalProperties`, the combinators and
 * `$defs`; bounded in depth and count (a definition beyond the bounds is reported, never judged in part).
 */
export function collectFields(description: string | undefined, title: string | undefined, inputSchema: unknown): CollectedFields {
  const out: CollectedFields = { fields: [], vocabulary: [] };
  const add = (field: string, text: unknown): void => {
    if (typeof text !== 'string' || text.length === 0) return;
    if (text.length > maxFieldChars) out.oversized ??= `${field} longer than ${maxFieldChars} characters`;
    else if (out.fields.length >= maxFieldsPerTool) out.oversized ??= `more than ${maxFieldsPerTool} text fields`;
    else out.fields.push({ field, text });
  };
  add('title', title);
  add('description', description);
  walk(inputSchema, 'inputSchema', 0, out, add);
  return out;
}

const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;

function walk(node: unknown, path: string, depth: number, out: CollectedFields, add: (field: string, text: unknown) => void): void {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  if (depth > maxSchemaDepth) {
    out.oversized ??= `schema deeper than ${maxSchemaDepth} levels`;
    return;
  }
  const schema = node as Record<string, unknown>;
  add(`${path}.description`, schema.description);
  add(`${path}.title`, schema.title);
  if (typeof schema.default === 'string') add(`${path}.default`, schema.default);
  if (Array.isArray(schema.examples)) schema.examples.forEach((e, i) => typeof e === 'string' && add(`${path}.examples.${i}`, e));
  if (Array.isArray(schema.enum)) {
    schema.enum.forEach((value, i) => {
      if (typeof value !== 'string') return;
      out.vocabulary.push(value);
      // Enum values are read by the model like any description; short ones are plain words.
      if (value.length > 40) add(`${path}.enum.${i}`, value);
    });
  }
  const properties = schema.properties;
  if (properties && typeof properties === 'object' && !Array.isArray(properties)) {
    for (const [name, child] of Object.entries(properties as Record<string, unknown>)) {
      out.vocabulary.push(name);
      add(`${path}.properties.${name}`, name.length > 64 ? name : undefined);
      walk(child, `${path}.properties.${name}`, depth + 1, out, add);
    }
  }
  walk(schema.items, `${path}.items`, depth + 1, out, add);
  walk(schema.additionalProperties, `${path}.additionalProperties`, depth + 1, out, add);
  for (const key of COMBINATORS) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((child, i) => walk(child, `${path}.${key}.${i}`, depth + 1, out, add));
  }
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = schema[key];
    if (defs && typeof defs === 'object' && !Array.isArray(defs)) {
      for (const [name, child] of Object.entries(defs as Record<string, unknown>)) walk(child, `${path}.${key}.${name}`, depth + 1, out, add);
    }
  }
}
