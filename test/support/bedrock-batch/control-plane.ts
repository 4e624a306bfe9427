import type { ServerResponse } from 'node:http';
import { InvocationJob } from './invocation-job.js';
import { createJobSchema, type JobContext, type JobFaults } from './job-context.js';
import { withKey } from './record-answers.js';

/**
 * The operations of the Bedrock batch test server, each from the request
 * to a reply: CreateModelInvocationJob, GetModelInvocationJob (with the
 * plan's throttling and server errors, and its output lag counted),
 * StopModelInvocationJob and ListModelInvocationJobs. Errors are named in
 * `x-amzn-errortype`, as the AWS SDK reads them.
 */
export interface Reply {
  readonly status: number;
  readonly body: object;
  readonly errorType?: string;
}

export interface ControlRequest {
  readonly method: string;
  readonly url: URL;
  readonly body: string;
  /** The access key of the request's SigV4 credential. */
  readonly accessKeyId: string | undefined;
}

export interface ControlPlane {
  readonly jobs: Map<string, InvocationJob>;
  readonly context: JobContext;
  /** Whether GetModelInvocationJob steps the job before answering (the default progression). */
  readonly stepOnGet: boolean;
  plan(): JobFaults;
  /** The fault the next GetModelInvocationJob gets, counted: throttleGets first, then serverErrorGets. */
  getFault(): 'throttle' | 'server-error' | undefined;
  /** Told each job created, once. */
  created(job: InvocationJob): Promise<void>;
}

const ACCOUNT = '123456789012';
const REGION = 'us-east-1';

export async function routeControlPlane(request: ControlRequest, plane: ControlPlane): Promise<Reply> {
  const { method, url } = request;
  const path = url.pathname;
  const faults = plane.plan();
  if (method === 'POST' && path === '/model-invocation-job') return create(request, plane);
  if (method === 'GET' && path === '/model-invocation-jobs') {
    const named = url.searchParams.get('nameContains') ?? '';
    const found = [...plane.jobs.values()].filter((job) => job.request.jobName.includes(named)).reverse();
    return { status: 200, body: { invocationJobSummaries: found.map((job) => job.toObject(faults)) } };
  }
  const jobPath = /^\/model-invocation-job\/([^/]+)(\/stop)?$/.exec(path);
  if (jobPath !== null && method === 'GET' && jobPath[2] === undefined) {
    const fault = plane.getFault();
    if (fault === 'throttle')
      return error(429, 'ThrottlingException', withKey('Too many requests, please wait before trying again.', request.accessKeyId, faults));
    if (fault === 'server-error')
      return error(
        500,
        'InternalServerException',
        withKey('Internal server error. Please try your request again.', request.accessKeyId, faults),
      );
  }
  const job = jobPath === null ? undefined : jobOf(plane.jobs, decodeURIComponent(jobPath[1] ?? ''));
  if (jobPath !== null && job === undefined)
    return error(404, 'ResourceNotFoundException', 'The specified batch inference job does not exist.');
  if (job !== undefined && method === 'GET' && jobPath?.[2] === undefined) {
    if (plane.stepOnGet) await job.step(plane.context);
    await job.retrieved(plane.context);
    return { status: 200, body: job.toObject(faults) };
  }
  if (job !== undefined && method === 'POST' && jobPath?.[2] === '/stop') {
    const refused = job.stop();
    return refused === undefined ? { status: 200, body: {} } : error(400, 'ValidationException', refused);
  }
  return error(404, 'UnknownOperationException', `Unknown operation ${method} ${path}`);
}

async function create(request: ControlRequest, plane: ControlPlane): Promise<Reply> {
  const parsed = createJobSchema.safeParse(JSON.parse(request.body));
  if (!parsed.success)
    return error(400, 'ValidationException', parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  const create = parsed.data;
  const jobs = [...plane.jobs.values()];
  // The same token is the same request: its job, not a second one.
  const same = jobs.find(
    (job) =>
      plane.plan().forgetTokens !== true &&
      create.clientRequestToken !== undefined &&
      job.request.clientRequestToken === create.clientRequestToken,
  );
  if (same !== undefined) return { status: 200, body: { jobArn: same.jobArn } };
  if (jobs.some((job) => job.request.jobName === create.jobName))
    return error(409, 'ConflictException', `A batch inference job named ${create.jobName} already exists.`);
  const jobArn = `arn:aws:bedrock:${REGION}:${ACCOUNT}:model-invocation-job/test${String(plane.jobs.size + 1).padStart(8, '0')}`;
  const job = new InvocationJob(jobArn, create, new Date(), request.accessKeyId);
  plane.jobs.set(jobArn, job);
  await plane.created(job);
  return { status: 200, body: { jobArn } };
}

function jobOf(jobs: ReadonlyMap<string, InvocationJob>, identifier: string): InvocationJob | undefined {
  return jobs.get(identifier) ?? [...jobs.values()].find((job) => job.jobId === identifier);
}

export function error(status: number, type: string, message: string): Reply {
  return { status, body: { message }, errorType: type };
}

export function send(response: ServerResponse, reply: Reply): void {
  const typed =
    reply.errorType === undefined ? {} : { 'x-amzn-errortype': `${reply.errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/` };
  response.writeHead(reply.status, { 'content-type': 'application/json', 'x-amzn-requestid': 'test-request', ...typed });
  response.end(JSON.stringify(reply.body));
}
