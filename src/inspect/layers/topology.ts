import config from '../../../config/topology.json' with { type: 'json' };
import type { Flag, InspectionContext, Layer, Span } from '../types.js';
import { scanCharacters, type CharStats } from '../topology/scan.js';
import { dialogueTurns, lineRepetition, tokenRepetition } from '../topology/repetition.js';
import { highEntropyBlobs } from '../topology/entropy.js';

/**
 * Layer 1 — topological gatekeeper. Looks at the shape of the payload, never its words:
 * invisible and bidi characters, homoglyph-mixed words, floods, nesting, entropy.
 * One character pass plus, for large or many-line inputs, two bounded counting passes.
 * Only pathological payloads (mostly invisible, massive floods, absurd nesting) halt.
 */

type Emit = (type: string, score: number, category: string, detail: string, span?: Span) => void;

function characterFlags(s: CharStats, emit: Emit): boolean {
  const inv = config.invisible;
  const ratio = s.length > 0 ? s.invisible / s.length : 0;
  if (s.invisible >= inv.haltMinCount && ratio >= inv.haltRatio) {
    emit('invisible_flood', inv.haltScore, 'obfuscation', `${Math.round(ratio * 100)}% invisible characters`);
    return true;
  }
  if (s.invisible >= inv.minCountForDensity && ratio >= inv.denseRatio) {
    emit('invisible_characters', inv.denseScore, 'obfuscation', `${s.invisible} invisible characters`);
  } else if (s.invisibleInWord >= inv.inWordMin) {
    emit('invisible_characters', inv.inWordScore, 'obfuscation', `${s.invisibleInWord} invisible characters inside words`);
  }
  if (s.bidiControls > 0) {
    const codeLike = s.codePunctuation >= 3 && s.bidiControls >= config.bidi.codeOverrideMin;
    emit(
      codeLike ? 'trojan_source' : 'bidi_override',
      codeLike ? config.bidi.codeOverrideScore : config.bidi.overrideScore,
      'obfuscation',
      `${s.bidiControls} bidi embedding/override/isolate characters`,
    );
  }
  if (s.tagRun >= config.tags.minRun) {
    emit('hidden_tag_characters', config.tags.score, 'obfuscation', `${s.tagRun} Unicode tag characters`, s.tagSpan);
  }
  if (s.selectorRun >= config.variationSelectors.minRun) {
    emit('variation_selector_run', config.variationSelectors.score, 'obfuscation', `${s.selectorRun} variation selectors in a row`);
  }
  const mixed = config.mixedScript;
  if (s.mixedWords >= mixed.weakMin) {
    const strong = s.mixedWords >= mixed.strongMin;
    emit('mixed_script_words', strong ? mixed.strongScore : mixed.weakScore, 'obfuscation', `${s.mixedWords} words mix Latin with look-alike letters`, s.mixedSpan);
  }
  if (s.controls - s.escapes >= config.controls.minCount) {
    emit('control_characters', config.controls.score, 'anomaly', `${s.controls} control characters`);
  } else if (s.escapes > 0) {
    emit('terminal_escapes', config.controls.escapeScore, 'anomaly', `${s.escapes} terminal escape characters`);
  }
  const cr = config.charRun;
  const runSpan = { start: s.charRunStart, end: s.charRunStart + s.charRun };
  if (s.charRun >= cr.haltRun || (s.length >= cr.haltMinLength && s.charRun / s.length >= cr.haltShare)) {
    emit('character_flood', cr.haltScore, 'anomaly', `one character repeated ${s.charRun} times`, runSpan);
    return true;
  }
  if (s.charRun >= cr.weakRun) emit('character_flood', cr.weakScore, 'anomaly', `one character repeated ${s.charRun} times`, runSpan);
  const nest = config.nesting;
  if (s.maxDepth >= nest.haltDepth) {
    emit('deep_nesting', nest.haltScore, 'anomaly', `bracket nesting depth ${s.maxDepth}`);
    return true;
  }
  if (s.maxDepth >= nest.weakDepth) emit('deep_nesting', nest.weakScore, 'anomaly', `bracket nesting depth ${s.maxDepth}`);
  return false;
}

function floodFlags(text: string, s: CharStats, emit: Emit): boolean {
  const lines = config.lines;
  if (s.newlines + 1 >= lines.minRepeat) {
    const rep = lineRepetition(text, lines.maxLinesTracked);
    if (rep.count >= lines.massiveRepeat && rep.share >= lines.massiveShare) {
      emit('line_flood', lines.massiveScore, 'anomaly', `one line repeated ${rep.count} times`);
      return true;
    }
    if (rep.count >= lines.minRepeat && rep.share >= lines.minShare) {
      emit('line_flood', lines.weakScore, 'anomaly', `one line repeated ${rep.count} times`);
    }
    const turns = dialogueTurns(text, config.manyShot.strongTurns);
    if (turns >= config.manyShot.weakTurns) {
      const strong = turns >= config.manyShot.strongTurns;
      emit('many_shot_dialogue', strong ? config.manyShot.strongScore : config.manyShot.weakScore, 'anomaly', `${turns}${strong ? '+' : ''} dialogue turns`);
    }
  }
  const tokens = config.tokens;
  if (text.length >= tokens.minTextLength) {
    const rep = tokenRepetition(text, Math.min(tokens.minShare, tokens.massiveShare));
    if (rep.count >= tokens.massiveRepeat && rep.share >= tokens.massiveShare) {
      emit('token_flood', tokens.massiveScore, 'anomaly', `one token repeated ${rep.count} times`);
      return true;
    }
    if (rep.count >= tokens.minRepeat && rep.share >= tokens.minShare) {
      emit('token_flood', tokens.weakScore, 'anomaly', `one token repeated ${rep.count} times`);
    }
  }
  const ent = config.entropy;
  if (text.length >= ent.minTextLength) {
    const blobs = highEntropyBlobs(text, s.blobRuns, ent.minBitsPerChar);
    if (blobs.chars / text.length >= ent.minShareOfText) {
      emit('high_entropy_blob', ent.score, 'obfuscation', `${blobs.count} high-entropy blobs`, blobs.first);
    }
  }
  return false;
}

export const topologyLayer: Layer = {
  name: 'topology',
  run(ctx: InspectionContext) {
    const text = ctx.content;
    if (text.length === 0) return;
    const emit: Emit = (type, score, category, detail, span) => {
      const flag: Flag = { layer: 'topology', type, score, category, detail };
      if (span) flag.span = span;
      ctx.flags.push(flag);
    };
    const stats = scanCharacters(text, config.entropy.minBlobLength);
    ctx.signals['topology.invisible_ratio'] = stats.invisible / text.length;
    ctx.signals['topology.mixed_script_words'] = stats.mixedWords;
    ctx.signals['topology.max_depth'] = stats.maxDepth;
    if (characterFlags(stats, emit) || floodFlags(text, stats, emit)) ctx.halted = true;
  },
};
