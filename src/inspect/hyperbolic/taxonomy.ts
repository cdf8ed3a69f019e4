import taxonomy from '../../../config/taxonomy.json' with { type: 'json' };
import { pointAt } from './poincare.js';

/**
 * The threat taxonomy (config/taxonomy.json) embedded in the Poincaré ball. Category i sits on axis i at
 * hyperbolic radius `radius.category`; its leaves lean off that axis towards one of the remaining axes (±), at
 * `radius.leaf`, so leaves are close to their parent and far from other categories' leaves. General nodes near
 * the origin, specific ones near the boundary: the tree's depth becomes distance from the centre.
 */

export interface TaxonomyNode {
  /** `injection` or `injection/role_play`. */
  path: string;
  category: string;
  leaf?: string;
  point: Float64Array;
}

export const DIMENSIONS: number = taxonomy.dimensions;
const categoryNames = Object.keys(taxonomy.categories);
const categories = taxonomy.categories as Record<string, { leaves: Record<string, string> }>;

function buildNodes(): TaxonomyNode[] {
  const free = DIMENSIONS - categoryNames.length;
  if (free < 1) throw new Error('taxonomy needs more dimensions than categories');
  const nodes: TaxonomyNode[] = [];
  categoryNames.forEach((category, i) => {
    const axis = new Float64Array(DIMENSIONS);
    axis[i] = 1;
    nodes.push({ path: category, category, point: pointAt(axis, taxonomy.radius.category) });
    Object.keys(categories[category].leaves).forEach((leaf, j) => {
      const direction = new Float64Array(DIMENSIONS);
      direction[i] = 1;
      direction[categoryNames.length + (j % free)] = (Math.floor(j / free) % 2 === 0 ? 1 : -1) * 0.6;
      nodes.push({ path: `${category}/${leaf}`, category, leaf, point: pointAt(direction, taxonomy.radius.leaf) });
    });
  });
  return nodes;
}

export const NODES: readonly TaxonomyNode[] = buildNodes();
export const NODE_INDEX: ReadonlyMap<string, number> = new Map(NODES.map((n, i) => [n.path, i]));
export const CATEGORY_NAMES: readonly string[] = categoryNames;

export function isTaxonomyPath(path: string): boolean {
  return NODE_INDEX.has(path);
}
