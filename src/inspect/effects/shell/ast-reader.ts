import { bounds } from '../settings.js';
import type { Redirect, ShellCommand, ShellScript } from '../types.js';
import type { SyntaxNode } from './tree-sitter.js';
import { wordText } from './words.js';

/**
 * Reads a bash syntax tree into simple commands: words after quote removal, redirects, prefix assignments,
 * the command piped into each one, and which commands ran inside a substitution. Control structures (lists,
 * if/while/for/case, subshells, braces, functions) are walked through. The walk stops at `maxCommands`.
 */

interface Walk {
  out: ShellCommand[];
  script: ShellScript;
  depth: number;
}

const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution']);

export function readTree(root: SyntaxNode, depth: number, script: ShellScript): ShellCommand[] {
  const walk: Walk = { out: [], script, depth };
  visit(root, walk, false);
  return walk.out;
}

function full(w: Walk): boolean {
  if (w.out.length < bounds.maxRawCommands) return false;
  w.script.truncated = true;
  return true;
}

function newCommand(w: Walk, substituted: boolean): ShellCommand {
  return { name: '', args: [], redirects: [], assignments: [], elevated: false, substituted, depth: w.depth };
}

/** Visits `node`; returns the last top-level command it produced (the one whose stdout a pipe would carry). */
function visit(node: SyntaxNode, w: Walk, substituted: boolean): ShellCommand | undefined {
  if (full(w)) return undefined;
  switch (node.type) {
    case 'command':
      return readCommand(node, w, substituted);
    case 'declaration_command':
    case 'unset_command':
      return readDeclaration(node, w, substituted);
    case 'variable_assignment': {
      const cmd = newCommand(w, substituted);
      cmd.assignments.push(assignment(node, w));
      w.out.push(cmd);
      return cmd;
    }
    case 'pipeline':
      return readPipeline(node, w, substituted);
    case 'redirected_statement':
      return readRedirected(node, w, substituted);
    case 'function_definition':
      return readFunction(node, w, substituted);
    default: {
      let last: ShellCommand | undefined;
      const inner = substituted || SUBSTITUTIONS.has(node.type);
      for (const child of node.namedChildren) {
        if (!child) continue;
        const produced = visit(child, w, inner);
        if (produced) last = produced;
      }
      return last;
    }
  }
}

function readCommand(node: SyntaxNode, w: Walk, substituted: boolean): ShellCommand {
  const cmd = newCommand(w, substituted);
  const words: string[] = [];
  const heredocs: SyntaxNode[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'variable_assignment') cmd.assignments.push(assignment(child, w));
    else if (REDIRECT_TYPES.has(child.type)) {
      cmd.redirects.push(...redirectsOf(child, w));
      if (child.type === 'heredoc_redirect') heredocs.push(child);
    }
    else if (child.type === 'command_name') words.push(wordOf(child.firstNamedChild ?? child, w));
    else words.push(wordOf(child, w));
  }
  cmd.name = words[0] ?? '';
  cmd.args = words.slice(1);
  w.out.push(cmd);
  for (const h of heredocs) heredocTail(h, cmd, w, substituted);
  return cmd;
}

function readDeclaration(node: SyntaxNode, w: Walk, substituted: boolean): ShellCommand {
  const cmd = newCommand(w, substituted);
  cmd.name = node.firstChild?.text ?? '';
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'variable_assignment') cmd.assignments.push(assignment(child, w));
    else cmd.args.push(wordOf(child, w));
  }
  w.out.push(cmd);
  return cmd;
}

function readPipeline(node: SyntaxNode, w: Walk, substituted: boolean): ShellCommand | undefined {
  let previous: ShellCommand | undefined;
  for (const child of node.namedChildren) {
    if (!child) continue;
    const start = w.out.length;
    const last = visit(child, w, substituted);
    const first = w.out.slice(start).find((c) => c.substituted === substituted);
    if (first && previous && !first.pipeIn) first.pipeIn = previous;
    if (last) previous = last;
  }
  return previous;
}

function readRedirected(node: SyntaxNode, w: Walk, substituted: boolean): ShellCommand | undefined {
  const redirects: Redirect[] = [];
  const start = w.out.length;
  let last: ShellCommand | undefined;
  let bodyIsPipeline = false;
  const heredocs: SyntaxNode[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (REDIRECT_TYPES.has(child.type)) {
      redirects.push(...redirectsOf(child, w));
      if (child.type === 'heredoc_redirect') heredocs.push(child);
    } else {
      bodyIsPipeline = child.type === 'pipeline';
      last = visit(child, w, substituted) ?? last;
    }
  }
  // After a pipeline a redirect belongs to its last command; after a group or loop, to every command inside.
  if (bodyIsPipeline) last?.redirects.push(...redirects);
  else for (const cmd of w.out.slice(start)) if (cmd.substituted === substituted) cmd.redirects.push(...redirects);
  if (!last && redirects.length > 0) {
    // `> file` alone truncates the file.
    last = newCommand(w, substituted);
    last.redirects.push(...redirects);
    w.out.push(last);
  }
  if (last) for (const h of heredocs) heredocTail(h, last, w, substituted);
  return last;
}

function readFunction(node: SyntaxNode, w: Walk, substituted: boolean): ShellCommand | undefined {
  const name = node.childForFieldName('name')?.text ?? '';
  const body = node.childForFieldName('body');
  const start = w.out.length;
  const last = body ? visit(body, w, substituted) : undefined;
  const produced = w.out.slice(start);
  const text = body?.text ?? '';
  w.script.functions.push({
    name,
    calls: produced.map((c) => c.name),
    piped: produced.some((c) => c.pipeIn !== undefined),
    background: /(^|[^&])&($|[^&>])/.test(text),
  });
  return last;
}

function assignment(node: SyntaxNode, w: Walk): [string, string] {
  const name = node.childForFieldName('name')?.text ?? '';
  const value = node.childForFieldName('value');
  return [name, value ? wordOf(value, w) : ''];
}

const HEREDOC_PARTS = new Set(['heredoc_start', 'heredoc_body', 'heredoc_end', 'heredoc_content']);

function redirectsOf(node: SyntaxNode, w: Walk): Redirect[] {
  if (node.type !== 'heredoc_redirect') return [redirect(node, w)];
  // `cat <<EOF > file`: the file redirect sits inside the heredoc node.
  const body = node.namedChildren.find((c) => c?.type === 'heredoc_body');
  const out: Redirect[] = [{ op: '<<', target: (body?.text ?? '').slice(0, bounds.maxScriptChars) }];
  for (const child of node.namedChildren) if (child && child.type === 'file_redirect') out.push(redirect(child, w));
  return out;
}

/**
 * `cat <<EOF | bash` and `cat <<EOF && next`: the grammar puts what follows the heredoc marker inside the heredoc
 * node. Those statements run after `owner`; a pipeline there reads owner's output.
 */
function heredocTail(node: SyntaxNode, owner: ShellCommand, w: Walk, substituted: boolean): void {
  for (const child of node.namedChildren) {
    if (!child || HEREDOC_PARTS.has(child.type) || REDIRECT_TYPES.has(child.type)) continue;
    const start = w.out.length;
    visit(child, w, substituted);
    const first = w.out.slice(start).find((c) => c.substituted === substituted);
    if (first && child.type === 'pipeline' && !first.pipeIn) first.pipeIn = owner;
  }
}

function redirect(node: SyntaxNode, w: Walk): Redirect {
  let op = '';
  let target = '';
  for (const child of node.children) {
    if (!child) continue;
    if (!child.isNamed) {
      if (!op) op = child.text;
    } else if (child.type !== 'file_descriptor' && !target) target = wordOf(child, w);
  }
  return { op: node.type === 'herestring_redirect' ? '<<<' : op, target };
}

/** A word's literal text; substitutions inside it are walked too, so `$(curl …)` is judged as a command. */
function wordOf(node: SyntaxNode, w: Walk): string {
  collectSubstitutions(node, w, 0);
  return wordText(node);
}

function collectSubstitutions(node: SyntaxNode, w: Walk, level: number): void {
  if (level > bounds.maxNesting) return;
  if (SUBSTITUTIONS.has(node.type)) {
    for (const child of node.namedChildren) if (child) visit(child, w, true);
    return;
  }
  for (const child of node.namedChildren) if (child) collectSubstitutions(child, w, level + 1);
}
