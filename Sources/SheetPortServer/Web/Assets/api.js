// The JSON API with the session cookie and the CSRF header; every failure is an ApiError
// whose message is the server's own, shown in #status by the caller.
import { showError } from './status.js';

/** A refused or failed request: `status`, the server's `code` and `message`. */
export class ApiError extends Error {
  constructor(status, code, message, body = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

function csrfToken() {
  return document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
}

/**
 * The page is served with `Referrer-Policy: no-referrer`, under which a browser sends
 * `Origin: null` on a POST; the server's CSRF rule needs the real origin, which this
 * per-request policy sends to our own origin only.
 */
export const sameOriginReferrer = 'same-origin';

/** The headers every request of the page carries. */
export function apiHeaders(extra = {}) {
  return { Accept: 'application/json', 'X-SheetPort-CSRF': csrfToken(), 'Content-Type': 'application/json', ...extra };
}

/**
 * Sends `method path` with `body` (JSON unless a Blob/File) and answers the parsed JSON
 * (null for 204). Throws ApiError with the server's code and message.
 */
export async function api(method, path, body = undefined, headers = {}) {
  const init = { method, credentials: 'same-origin', referrerPolicy: sameOriginReferrer, headers: apiHeaders(headers) };
  if (body instanceof Blob) init.body = body;
  else if (body !== undefined) init.body = JSON.stringify(body);
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, 'network', `the server cannot be reached (${error.message})`);
  }
  if (response.status === 204) return null;
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    const error = json?.error ?? {};
    if (response.status === 401) setTimeout(() => { location.href = '/'; }, 1500);
    throw new ApiError(response.status, error.code ?? `http-${response.status}`, error.message ?? `${response.status} ${response.statusText}`, json);
  }
  return json;
}

/** `doing` failed: its message goes to #status. */
export function report(error, doing) {
  const message = error instanceof ApiError ? `${error.message} (${error.code})` : String(error?.message ?? error);
  showError(`cannot ${doing}: ${message}`);
}

/** Runs `work`, showing its failure in #status; answers its result or undefined. */
export async function attempt(doing, work) {
  try {
    const result = await work();
    return result;
  } catch (error) {
    report(error, doing);
    return undefined;
  }
}

let limits = null;
/** GET /api/limits, fetched once. */
export async function serverLimits() {
  if (!limits) limits = await api('GET', '/api/limits');
  return limits;
}

/** The limits if already fetched (for event handlers that must answer without waiting). */
export function knownLimits() {
  return limits;
}

/** The sheet route `/api/sheets/{id}` + `rest`, the id escaped. */
export function sheetPath(id, rest = '') {
  return `/api/sheets/${encodeURIComponent(id)}${rest}`;
}
