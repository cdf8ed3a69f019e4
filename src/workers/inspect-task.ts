import { inspect } from '../inspect/pipeline.js';
import type { InspectionRequest, Verdict } from '../inspect/types.js';

export interface InspectTask {
  requests: InspectionRequest[];
}

/**
 * Runs inside a pool thread: the pure pipeline over each request of the task (one for /filter, up to
 * the batch limit for /filter/batch). A throwing layer rejects the task; the caller answers 5xx.
 */
export default function inspectTask(task: InspectTask): Verdict[] {
  return task.requests.map((request) => inspect(request));
}
