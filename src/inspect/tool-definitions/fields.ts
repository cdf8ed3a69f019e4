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

/** The parts of a definition besides the input schema that a client may show the model. */
export interface MoreFields {
  outputSchema?: unknown;
  annotations?: unknown;
  icons?: unknown;
  _meta?: unknown;
}

/**
 * Every text of a definition the model sees: in the input and output schemas `description` and `title` at every
 * level, property names, string enum values, string defaults and examples (walking `properties`, `items`,
 * `additionalProperties`, the combinators and `$defs`); the annotations' title; every string of `_meta`; icon URLs
 * that are not inline images. Bounded in depth and count (a definition beyond the bounds is reported, never judged in part).
 */
export function collectFields(description: string | undefined, title: string | undefined, inputSchema: unknown, more: MoreFields = {}): CollectedFields {
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
  walk(more.outputSchema, 'outputSchema', 0, out, add);
  if (isObject(more.annotations)) add('annotations.title', more.annotations.title);
  strings(more._meta, '_meta', 0, out, add);
  if (Array.isArray(more.icons)) {
    more.icons.forEach((icon, i) => {
      if (isObject(icon) && typeof icon.src === 'string' && !INLINE_IMAGE.test(icon.src)) add(`icons.${i}.src`, icon.src);
    });
  }
  return out;
}

const INLINE_IMAGE = /^data:image\/[\w.+-]+;base64,[A-Za-z0-9+/=]*$/;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every string in free-form JSON (`_meta`), with its path; bounded in depth like a schema. */
function strings(node: unknown, path: string, depth: number, out: CollectedFields, add: (field: string, text: unknown) => void): void {
  if (typeof node === 'string') return add(path, node);
  if (node === null || typeof node !== 'object') return;
  if (depth > maxSchemaDepth) {
    out.oversized ??= `${path} deeper than ${maxSchemaDepth} levels`;
    return;
  }
  for (const [key, child] of Object.entries(node)) strings(child, `${path}.${key}`, depth + 1, out, add);
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
