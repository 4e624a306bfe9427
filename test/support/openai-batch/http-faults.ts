import type { Reply } from './api-reply.js';
import { errorText, type ProviderTextFaults } from './provider-text.js';
import type { RouteName } from './route-names.js';

/**
 * HTTP errors and dropped connections on any route of the batch test
 * server, answered in place of the route (nothing of its work is done,
 * but for a cut after the work):
 * polls that meet 500s or 429s, a result file whose content is not there
 * yet (404), an outage. Each fault answers the next `times` requests that
 * match it, counted from the moment the plan was set. A request whose key
 * the server refuses gets its 401 first and uses up no fault.
 */
type RoutePath = RouteName extends `${string} ${infer Path}` ? Path : never;

export interface HttpFault {
  /** The method, for a route given without one; when the route names one, the two must agree. */
  readonly method?: 'GET' | 'POST' | 'DELETE';
  /** A route by name, e.g. `GET batches/{id}`, `GET files/{id}/content`, `POST batches`; or its path alone with `method`, or for every method. */
  readonly route: RouteName | RoutePath;
  /** Default 500. */
  readonly status?: number;
  /** How many matching requests it answers; default every one (an outage). */
  readonly times?: number;
  /** Default the API's own error body for the status: OpenAI's `{error: {message, type, param, code}}` on `/v1`, Azure's `{error: {code, message}}` on `/openai`. */
  readonly body?: object;
  /** Added to the answer, e.g. `{'retry-after-ms': '10'}`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Destroy the connection without an answer: the client meets a network error. */
  readonly cut?: boolean;
  /** Keep the connection open and never answer: a provider that hangs. */
  readonly hang?: boolean;
  /**
   * Do the route's work (a batch created, a file stored), then destroy the
   * connection before its answer: the provider did it, the client never
   * hears, and its SDK may send the request again.
   */
  readonly cutAfterWork?: boolean;
}

export interface HttpFaultPlan extends ProviderTextFaults {
  readonly httpFaults?: readonly HttpFault[];
}

/** What the faulted request is. */
export interface FaultedRequest {
  readonly method: string;
  readonly route: RouteName;
  readonly azure: boolean;
  readonly apiKey: string | undefined;
}

const MESSAGES: Readonly<Record<number, string>> = {
  400: 'Bad request.',
  401: 'Incorrect API key provided.',
  403: 'You are not allowed to make this request.',
  404: 'The requested resource was not found.',
  409: 'The request conflicts with the state of the resource.',
  429: 'Rate limit reached for requests. Please try again later.',
  500: 'The server had an error while processing your request. Sorry about that!',
  502: 'Bad gateway.',
  503: 'The engine is currently overloaded, please try again later.',
  504: 'Gateway timeout.',
};

/** Counts, per fault of the plan, the requests it answered; a new plan starts from zero. */
export class HttpFaults {
  private answered = new Map<HttpFault, number>();

  reset(): void {
    this.answered = new Map();
  }

  /** The reply of the first fault of the plan that still matches this request, counted; undefined when none does. */
  take(plan: HttpFaultPlan, request: FaultedRequest): Reply | undefined {
    const fault = plan.httpFaults?.find(
      (candidate) => matches(candidate, request) && (this.answered.get(candidate) ?? 0) < (candidate.times ?? Number.POSITIVE_INFINITY),
    );
    if (fault === undefined) return undefined;
    this.answered.set(fault, (this.answered.get(fault) ?? 0) + 1);
    if (fault.cut === true) return { status: 0, body: {}, cut: true };
    if (fault.hang === true) return { status: 0, body: {}, hang: true };
    if (fault.cutAfterWork === true) return { status: 0, body: {}, cutAfterWork: true };
    const status = fault.status ?? 500;
    return {
      status,
      body: fault.body ?? defaultBody(status, request, plan),
      ...(fault.headers === undefined ? {} : { headers: fault.headers }),
    };
  }
}

function matches(fault: HttpFault, request: FaultedRequest): boolean {
  const named = fault.route.includes(' ') ? fault.route : `${fault.method ?? request.method} ${fault.route}`;
  return named === request.route && (fault.method === undefined || fault.method === request.method);
}

function defaultBody(status: number, request: FaultedRequest, plan: HttpFaultPlan): object {
  const message = errorText(MESSAGES[status] ?? `The server answered ${status}.`, request.apiKey, plan);
  if (request.azure) return { error: { code: String(status), message } };
  const type = status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';
  const code = status === 429 ? 'rate_limit_exceeded' : status === 401 ? 'invalid_api_key' : null;
  return { error: { message, type, param: null, code } };
}
