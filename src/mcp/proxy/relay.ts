import type { ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { EventSourceMessage } from 'eventsource-parser';
import type { RelayContext } from './context.js';
import { guardServerMessage } from './guard-server.js';
import { recordMcpResult } from './flow-guard.js';
import { CODES, errorResponse, isMessage, isResponse, verdictError, type Id, type Message } from './jsonrpc.js';
import type { Asked } from './session-ledger.js';
import { readBounded, sseEvents, UpstreamProtocolError } from './upstream.js';

export interface RelayTarget {
  res: ServerResponse;
  /** Headers of the agent's answer besides the content type (the bound Mcp-Session-Id, rate-limit fields). */
  headers: Record<string, string>;
  limit: number;
  /** Sends the proxy's answer to a server request it withheld from the agent (a blocked sampling request). */
  replyUpstream(message: Message): Promise<void>;
}

/**
 * The upstream's 2xx answer relayed to the agent message by message through guard point [A]. An SSE body is relayed
 * event by event as it arrives; a JSON body (one answer, bounded) whole. If the upstream fails, goes away or sends
 * something that is not JSON-RPC before every open request is answered, each open request gets a JSON-RPC error:
 * nothing of an unanswered call is ever passed on as if it had succeeded.
 */
export async function relayAnswer(ctx: RelayContext, upstream: Dispatcher.ResponseData, target: RelayTarget): Promise<void> {
  const type = String(upstream.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'text/event-stream') return relaySse(ctx, upstream.body, target);
  if (type === 'application/json') return relayJson(ctx, upstream.body, target);
  upstream.body.resume();
  failOpen(ctx, target, 'the MCP server answered with an unexpected content type');
}

async function relaySse(ctx: RelayContext, body: Dispatcher.ResponseData['body'], target: RelayTarget): Promise<void> {
  const { res } = target;
  res.writeHead(200, { ...target.headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
  // A stream answering requests sends its headers with the first event (one write instead of two); a standalone
  // stream, which may stay silent for long, opens at once.
  if (ctx.open.size === 0) res.flushHeaders();
  const stop = stopOnShutdown(ctx, body);
  let failure: string | undefined;
  try {
    for await (const event of sseEvents(body, target.limit)) {
      if (res.destroyed) return void takeUnanswered(ctx);
      const out = await guardEvent(ctx, event, target);
      if (out !== undefined) await write(res, sseFrame(out, event));
      if (stop.idleNow()) break;
    }
  } catch (err) {
    if (res.destroyed) return void takeUnanswered(ctx);
    failure = stop.reason() ?? (err instanceof UpstreamProtocolError ? 'the MCP server sent a message that is not JSON-RPC or too large' : 'the MCP server went away before answering');
  } finally {
    stop.release();
  }
  for (const [id, asked] of takeUnanswered(ctx)) await write(res, sseFrame(upstreamFailed(ctx, id, asked, failure ?? stop.reason() ?? 'the MCP server ended the stream before answering')));
  res.end();
}

const SHUTTING_DOWN = 'the gateway is shutting down';

/**
 * A stream during the gateway's shutdown: one that answers none of the agent's requests (a session's GET event stream)
 * carries no answer in progress, so it ends as soon as the drain begins (and one whose requests are all answered ends
 * after that answer); one with requests open keeps the grace period, after which they get an error. Ending it closes
 * the upstream stream too.
 */
function stopOnShutdown(ctx: RelayContext, body: Dispatcher.ResponseData['body']) {
  const { lifecycle } = ctx.request.server;
  let reason: string | undefined;
  const end = () => {
    reason = SHUTTING_DOWN;
    body.destroy();
  };
  const onDrain = () => ctx.open.size === 0 && end();
  if (lifecycle.idleStreams.signal.aborted) onDrain();
  lifecycle.idleStreams.signal.addEventListener('abort', onDrain, { once: true });
  lifecycle.streams.signal.addEventListener('abort', end, { once: true });
  return {
    reason: () => reason,
    idleNow: () => lifecycle.draining && ctx.open.size === 0,
    release() {
      lifecycle.idleStreams.signal.removeEventListener('abort', onDrain);
      lifecycle.streams.signal.removeEventListener('abort', end);
    },
  };
}

async function relayJson(ctx: RelayContext, body: AsyncIterable<Buffer>, target: RelayTarget): Promise<void> {
  let messages: Message[];
  let batch: boolean;
  try {
    const parsed: unknown = JSON.parse(await readBounded(body, target.limit));
    batch = Array.isArray(parsed);
    messages = (batch ? parsed : [parsed]) as Message[];
    if (!messages.every(isMessage)) throw new UpstreamProtocolError('not JSON-RPC');
  } catch (err) {
    return failOpen(ctx, target, err instanceof UpstreamProtocolError || err instanceof SyntaxError ? 'the MCP server sent a message that is not JSON-RPC or too large' : 'the MCP server went away before answering');
  }
  const out: Message[] = [];
  for (const m of messages) {
    const guarded = await guardOne(ctx, m, target);
    if (guarded) out.push(guarded);
  }
  for (const [id, asked] of takeUnanswered(ctx)) out.push(upstreamFailed(ctx, id, asked, 'the MCP server did not answer this request'));
  target.res.writeHead(200, { ...target.headers, 'content-type': 'application/json' });
  target.res.end(JSON.stringify(batch || out.length > 1 ? out : out[0]));
}

/** Before any byte of an answer was sent: the open requests get JSON-RPC errors (200), else 502 in the catalogue shape. */
export function failOpen(ctx: RelayContext, target: RelayTarget, reason: string, refused = false): void {
  const { res } = target;
  if (res.headersSent) return void res.end();
  const errors = takeUnanswered(ctx).map(([id, asked]) => (refused ? addressRefusedAnswer(ctx, id, asked, reason) : upstreamFailed(ctx, id, asked, reason)));
  if (errors.length === 0) {
    res.writeHead(502, { ...target.headers, 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'BASTION_ERR_UPSTREAM_UNREACHABLE', message: `The upstream could not be reached: ${reason}.` } }));
    return;
  }
  res.writeHead(200, { ...target.headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(errors.length === 1 ? errors[0] : errors));
}

async function guardEvent(ctx: RelayContext, event: EventSourceMessage, target: RelayTarget): Promise<Message | Message[] | undefined> {
  if (event.data === '') return undefined; // A priming event (id only) carries no message: nothing to relay.
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.data);
  } catch {
    throw new UpstreamProtocolError('not JSON');
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (list.length === 0 || !list.every(isMessage)) throw new UpstreamProtocolError('not JSON-RPC');
  const out: Message[] = [];
  for (const m of list as Message[]) {
    const guarded = await guardOne(ctx, m, target);
    if (guarded) out.push(guarded);
  }
  if (out.length === 0) return undefined;
  return Array.isArray(parsed) ? out : out[0];
}

async function guardOne(ctx: RelayContext, message: Message, target: RelayTarget): Promise<Message | undefined> {
  let outcome;
  try {
    outcome = await guardServerMessage(ctx, message);
  } catch {
    // A guard that fails never lets the message through; an answer the agent waits for still gets one.
    if (!isResponse(message)) return undefined;
    ctx.open.delete(message.id);
    ctx.count('other', 'withheld', { reason: 'inspection_failed' });
    return verdictError(message.id, CODES.WITHHELD, "Bastion withheld the server's answer: it could not be inspected.", { request_id: ctx.request.id, action: 'block', stage: 'tool_result', reason: 'inspection_failed' });
  }
  if ('forward' in outcome) await recordMcpResult(ctx, outcome.record ?? outcome.forward);
  if (isResponse(message)) ctx.open.delete(message.id);
  if ('drop' in outcome) {
    if (outcome.replyUpstream) await target.replyUpstream(outcome.replyUpstream).catch(() => undefined);
    return undefined;
  }
  return outcome.forward;
}

/**
 * The exchange's requests that no stream of the session has answered: they get an error here (unless the agent left),
 * and are taken from the session so that a late answer from the server is dropped (the agent had its answer or is gone).
 */
function takeUnanswered(ctx: RelayContext): [Id, Asked][] {
  const left = [...ctx.open].filter(([id]) => ctx.ledger.agent.has(id));
  for (const [id] of left) ctx.ledger.agent.delete(id);
  ctx.open.clear();
  return left;
}

function upstreamFailed(ctx: RelayContext, id: Id, asked: Asked, reason: string): Message {
  const method = asked.method;
  ctx.count(method, 'withheld', { reason: 'upstream_failed' });
  return errorResponse(id, CODES.UPSTREAM_FAILED, `Bastion: ${reason}.`, { bastion: { request_id: ctx.request.id, action: 'block', reason: 'upstream_failed' } });
}

/** The gateway's address policy refused the server (never contacted): the request is refused, with the reason. */
function addressRefusedAnswer(ctx: RelayContext, id: Id, asked: Asked, reason: string): Message {
  ctx.count(asked.method, 'withheld', { reason: 'upstream_address_refused' });
  return errorResponse(id, CODES.REFUSED, `Bastion refused this request: ${reason}.`, { bastion: { request_id: ctx.request.id, action: 'block', reason: 'upstream_address_refused' } });
}

function sseFrame(message: Message | Message[], event?: EventSourceMessage): string {
  const id = event?.id ? `id: ${event.id.replace(/[\r\n]/g, '')}\n` : '';
  return `event: message\n${id}data: ${JSON.stringify(message)}\n\n`;
}

function write(res: ServerResponse, chunk: string): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
