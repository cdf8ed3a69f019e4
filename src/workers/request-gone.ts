import { REQUEST_GONE } from './dispatch.js';

/** What the HTTP layer marks on a request (src/http/create-app.ts sets `gone` and aborts the controller on close). */
interface Goable {
  gone?: boolean;
  goneController?: AbortController;
}

/**
 * Aborted when the request no longer has anyone waiting for it (answered, or the client disconnected): work done on
 * its behalf, such as a queued inspection, can be dropped. Here, beside the pool that drops it, so the screening
 * step reaches it without importing the HTTP layer above it.
 */
export function requestGone(request: Goable): AbortSignal {
  if (!request.goneController) {
    request.goneController = new AbortController();
    if (request.gone) request.goneController.abort(REQUEST_GONE);
  }
  return request.goneController.signal;
}
