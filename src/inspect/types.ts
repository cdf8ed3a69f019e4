import type { FlowPolicy } from '../flows/types.js';
import type { ChunkFeatures } from './semantic/chunk-features.js';

/**
 * The one contract every inspection layer implements. The pipeline is pure:
 * no I/O, no clocks other than for timings, no globals mutated between calls.
 * The same code runs in the worker pool, in tests and in `npm run eval`.
 */

export const KINDS = ['prompt', 'tool_result', 'tool_call', 'output'] as const;
export type Kind = (typeof KINDS)[number];

export const RISK_LEVELS = ['LOW', 'MEDIUM', 'HIGH', 'BLOCK'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export type Action = 'allow' | 'redact' | 'block';

/**
 * Who wrote the content (its provenance): the application's own system/developer instructions, an end user, a tool,
 * or the model. Untrusted by default ('user'): only a caller that knows the role (the chat proxy, /filter's `role`)
 * says otherwise.
 */
export const ROLES = ['system', 'user', 'tool', 'assistant'] as const;
export type Role = (typeof ROLES)[number];

/** SPEC §1 order. */
export const LAYER_NAMES = [
  'topology',
  'obfuscation',
  'secrets',
  'semantic',
  'hyperbolic',
  'causal',
  'phishing',
  'ers',
  'decision',
] as const;
/** The pipeline's layers, `model` (the optional transformer stage, src/models/stage.ts) and `judge` (the LLM judge, src/judge/). */
export type LayerName = (typeof LAYER_NAMES)[number] | 'model' | 'judge';

/** When the transformer model is consulted: never, when the embedded verdict is uncertain, or on every text. */
export const MODEL_STAGES = ['off', 'uncertain', 'all'] as const;
export type ModelStage = (typeof MODEL_STAGES)[number];

export interface Span {
  start: number;
  end: number;
}

/** One reason a layer found the content risky. `score` is in [0, 1]. */
export interface Flag {
  layer: LayerName;
  /** Machine-readable reason, e.g. `invisible_characters`, `prompt_injection`, `aws_access_key`. */
  type: string;
  score: number;
  /** Short human-readable explanation. Never echoes more than a few characters of content. */
  detail?: string;
  /** Offsets into the submitted content, when the reason is located. */
  span?: Span;
  /** Threat-taxonomy category this flag supports (e.g. `injection`, `exfiltration`). */
  category?: string;
  /** Threat family the flag names itself (e.g. `harmful_content/malware`), reported when it is the top flag. */
  family?: string;
}

/** A credential or PII value found in the submitted content. */
export interface SecretFinding {
  type: string;
  start: number;
  end: number;
  /** True for personal data (email, phone, card, IBAN, national id) rather than credentials. */
  pii?: boolean;
}

/** A normalised reading of the content that later layers scan (SPEC §1: obfuscation decoder). */
export interface View {
  /** e.g. `original`, `nfkc`, `skeleton`, `base64`, `rot13`, `leet`. */
  name: string;
  text: string;
  /** For decoded views: where in the content the decoded part came from. */
  source?: Span;
}

export interface TenantPolicy {
  /** Strict mode also blocks MEDIUM. */
  strict: boolean;
  /** What to do with a credential or PII finding: replace it with a placeholder, or block the request. */
  secretMode: 'redact' | 'block';
  /** Per-category override of the decision: block, redact (neutralise the cause) or only flag. */
  categoryActions: Record<string, 'block' | 'redact' | 'flag'>;
  /** Domains (and their subdomains) the phishing guard never flags. */
  allowDomains: string[];
  /** Causal arbiter: neutralise an operative span instead of blocking the whole request, where possible. */
  neutralizeCauses: boolean;
  /**
   * The app's own system/developer messages: 'secrets_only' (default) scans them for credentials and known-bad rules
   * (curated patterns, evolved rules, structural layers) but the injection model alone never blocks them; 'inspect'
   * judges them like user text.
   */
  systemMessages: 'inspect' | 'secrets_only';
  /**
   * Chat content parts Bastion cannot read as text (images, audio, binary or id-only files, unknown types):
   * 'inspect' (default) forwards them and reports them in the verdict; 'block_unknown' refuses the request.
   */
  contentParts: 'inspect' | 'block_unknown';
  /** Agent flow policy (src/flows/, docs/FLOWS.md); absent: the built-in default (on, block). Not read by the pipeline. */
  flows?: FlowPolicy;
  /**
   * A tool result holding an injection the segment judge confines to segments: 'quarantine' (absent: the default) cuts
   * those segments and forwards the rest, 'block' refuses the request. Not read by the pipeline (src/screening/quarantine.ts).
   */
  toolResultInjection?: 'quarantine' | 'block';
  /** The transformer model stage (only where the gateway has a model): off, uncertain (the cascade) or all. */
  modelStage: ModelStage;
  /**
   * A plain harmful operational ask in a prompt (malware, weapons, fraud, stalking, … see config/concepts/harm.json):
   * 'off' does not look, 'flag' (default) allows it and reports it (verdict flag `harmful_request`, metrics, console),
   * 'block' blocks it. A harmful ask inside a jailbreak framing is blocked as `jailbreak` under every setting.
   */
  harmfulContent: 'off' | 'flag' | 'block';
}

export const DEFAULT_POLICY: TenantPolicy = {
  strict: false,
  secretMode: 'redact',
  categoryActions: {},
  allowDomains: [],
  neutralizeCauses: false,
  systemMessages: 'secrets_only',
  contentParts: 'inspect',
  modelStage: 'uncertain',
  harmfulContent: 'flag',
};

/** Entity risk state read by the caller before inspection (layer 8 reads it, never writes it). */
export interface ErsState {
  score: number;
  shadowBanned: boolean;
}

/** A detection rule produced by the evolution loop and loaded into the pipeline. */
export interface DynamicRule {
  id: string;
  kind: 'regex' | 'phrase' | 'exemplar';
  pattern: string;
  family?: string;
}

export interface InspectionRequest {
  content: string;
  kind: Kind;
  strict?: boolean;
  policy?: Partial<TenantPolicy>;
  ers?: ErsState;
  /** Provenance; defaults from the kind (tool_result → tool, output → assistant, else user). */
  role?: Role;
}

/**
 * Mutable state handed from layer to layer within one inspection.
 * Layers append to `flags`/`secrets`/`views` and write named `signals`.
 */
export interface InspectionContext {
  readonly content: string;
  readonly kind: Kind;
  readonly policy: TenantPolicy;
  readonly ers: ErsState;
  /**
   * Who wrote the content: the causal arbiter and the decision weigh the app's own instructions differently.
   * createContext always sets it; a hand-built context without it is treated as untrusted user text.
   */
  readonly role?: Role;
  /** views[0] is always the original content. */
  views: View[];
  flags: Flag[];
  secrets: SecretFinding[];
  /** Named numeric signals shared between layers, e.g. `semantic.probability`. */
  signals: Record<string, number>;
  /** Most specific threat-taxonomy node the hyperbolic layer is confident about. */
  threatFamily?: string;
  /** Spans the causal arbiter judged to be the operative cause and safe to neutralise. */
  neutralize: Span[];
  /**
   * The semantic model's features of the chunk it scored highest (view `viewIndex`, [start, end) of that view's text),
   * still held by the semantic layer's sink when `sink.stamp === stamp`: the hyperbolic brain and the causal arbiter
   * read the same chunk and reuse them instead of featurizing it again.
   */
  semanticFeatures?: ChunkFeatures;
  /** Set by a layer that has seen enough (e.g. a pathological payload): later layers except decision are skipped. */
  halted?: boolean;
  /** Final decision, written by the decision layer. */
  risk: RiskLevel;
  action: Action;
}

export interface Layer {
  readonly name: LayerName;
  run(ctx: InspectionContext): void;
}

/** The verdict returned by `inspect()`; the HTTP layer adds request_id and ERS. */
export interface Verdict {
  allowed: boolean;
  risk_level: RiskLevel;
  action: Action;
  redacted_content: string;
  flags: Flag[];
  secrets: SecretFinding[];
  threat_family?: string;
  timings_ms: Record<string, number>;
  /** Opinions beyond the pipeline's flags: the transformer model's score when it was consulted. */
  layers?: { model?: ModelReport; judge?: JudgeReport };
}

/** What the LLM judge reports in a verdict (no content): its opinion, or why it gave none. */
export interface JudgeReport {
  verdict: 'attack' | 'benign' | 'none';
  category?: 'injection' | 'harmful_content';
  /** Llama Guard category codes (S1…S14). */
  codes?: string[];
  /** Why there is no opinion: timeout, error, unreadable, busy, rate_limited, budget_exhausted. */
  reason?: string;
  cached: boolean;
}

/** What the model stage reports in a verdict (no content). */
export interface ModelReport {
  /** Repository id (or folder) of the model. */
  id: string;
  /** Attack probability, the highest over the text's windows. */
  score: number;
  threshold: number;
  /** attack: the model's score is at or above its operating point; benign below it. */
  verdict: 'attack' | 'benign';
  /** What the cascade did with it: raised (added a blocking flag), cleared (the embedded model's own flags demoted), none. */
  effect: 'raised' | 'cleared' | 'none';
  windows: number;
  truncated: boolean;
}
