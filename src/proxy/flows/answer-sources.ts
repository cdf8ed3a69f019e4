import type { FastifyRequest } from 'fastify';
import { readResponsesItem } from '../../flows/conversation.js';
import { readMessagesSource } from '../../flows/sources.js';
import { flowContext } from './context.js';

/**
 * Server-side tool results inside an answer. The provider runs its own tools (Anthropic web fetch and search, code
 * execution; the Responses API's hosted web search, file search, code interpreter) between the model's steps, so an
 * answer can carry a page the model just read and, after it, a call that obeys it. Each such block or item is added
 * to the request's flow state as it passes, before the calls after it are decided; the state stored for a
 * continued Response holds it too.
 */

type Obj = Record<string, unknown>;

/** An Anthropic answer's content block that is not text or a client tool call. */
export function noteAnswerBlock(request: FastifyRequest, block: Obj): void {
  const ctx = flowContext(request);
  if (!ctx) return;
  if ((block.type === 'server_tool_use' || block.type === 'mcp_tool_use') && typeof block.id === 'string') ctx.state.addCall(block.id, typeof block.name === 'string' ? block.name : String(block.type));
  readMessagesSource(ctx.state, ctx.policy, block);
}

/** A Response output item that is not a call the app runs: a hosted tool's item, or a message citing sources. */
export function noteAnswerItem(request: FastifyRequest, item: Obj): void {
  const ctx = flowContext(request);
  if (ctx) readResponsesItem(ctx.state, ctx.policy, item, 'output');
}
