// A sheet's writes, one at a time in the order made: each answer's version and changed cells
// go into the model, and a failure is shown in #status.
import { ApiError, api, report, sheetPath } from './api.js';

export class WriteQueue {
  constructor(model) {
    this.model = model;
    this.tail = Promise.resolve();
    this.ownVersions = new Set();
    this.inFlight = 0;
    this.onAnswer = null;   // (answer, route) after an answer was applied
  }

  /**
   * Queues POST `route` with `body`; answers the server's answer, or null when refused (the
   * refusal shown as `doing`). `after(answer)` runs once the answer is applied.
   */
  send(route, body, doing, after = null) {
    const run = async () => {
      try {
        const answer = await api('POST', sheetPath(this.model.sheetId, route), body);
        if (typeof answer?.version === 'number') this.ownVersions.add(answer.version);
        this.model.applyChanged(answer?.changed);
        this.model.noteVersion(answer?.version);
        if (answer?.more) this.onMore?.();
        else if (after) await after(answer);
        this.onAnswer?.(answer, route);
        return answer;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'nothing-to-undo') report(new Error('nothing of yours left to undo'), 'undo');
        else report(error, doing);
        return null;
      }
    };
    // An idle queue sends at once, so the request leaves before the caller's own work (moving
    // the selection, drawing); a busy one sends after the writes before it, in order.
    const result = this.inFlight === 0 ? run() : this.tail.then(run);
    this.inFlight += 1;
    this.tail = result.catch(() => null).then(() => { this.inFlight -= 1; });
    return result;
  }

  /** Whether a write is sent and not yet answered (its version not yet known as ours). */
  get busy() {
    return this.inFlight > 0;
  }
}
