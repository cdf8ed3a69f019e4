import { bounds } from '../settings.js';

/**
 * Bounded reading of tool-call arguments: JSON only when the text is an object or array within `maxJsonChars`
 * and `maxNesting` brackets; every string value is visited with its key path, at most `maxJsonStrings` of them.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function parseArguments(text: string): Json | undefined {
  const t = text.trim();
  if (t.length > bounds.maxJsonChars || !(t.startsWith('{') || t.startsWith('['))) return undefined;
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 123 || c === 91) {
      if (++depth > bounds.maxNesting) return undefined;
    } else if (c === 125 || c === 93) depth--;
  }
  try {
    return JSON.parse(t) as Json;
  } catch {
    return undefined;
  }
}

export function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every string inside `value` (depth-first), bounded. */
export function stringsIn(value: Json, limit = bounds.maxJsonStrings): string[] {
  const out: string[] = [];
  const stack: Json[] = [value];
  while (stack.length > 0 && out.length < limit) {
    const v = stack.pop() as Json;
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (isObject(v)) for (const k of Object.keys(v).reverse()) stack.push(v[k]);
    if (stack.length > 4 * limit) stack.length = 4 * limit;
  }
  return out;
}

export function serialise(v: Json | undefined): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : JSON.stringify(v).slice(0, bounds.maxJsonChars);
}
