/** A tenant that has bought the evolution add-on (startup is its lowest tier): its traffic feeds the loop. */
export const EVOLVING = { rate: 10_000, plan: 'startup', addons: ['evolution'] };
