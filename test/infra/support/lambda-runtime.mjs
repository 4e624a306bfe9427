// A stand-in for the Lambda Node.js runtime, run as a child process beside the
// bundles it serves (lambda-sandbox.ts copies it there): it imports one
// function's bundle from its task root at start (the cold start), then invokes
// its handler for each event the parent sends over IPC, with a Lambda-like
// context whose remaining time counts down from the function's timeout. Events
// and results cross as JSON, as they do on Lambda. Node built-ins only: nothing
// of the repository is resolvable from here.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [taskRoot, handlerSetting, timeoutSeconds] = process.argv.slice(2);
const [file, exportName] = handlerSetting.split('.');
const timeoutMs = Number(timeoutSeconds) * 1000;
let invocations = 0;

/** The error as the Lambda runtime reports it: errorType and errorMessage. */
function errorOf(error) {
  return error instanceof Error
    ? { errorType: error.name, errorMessage: error.message }
    : { errorType: 'Error', errorMessage: String(error) };
}

function contextFor(deadline) {
  invocations += 1;
  const name = process.env.AWS_LAMBDA_FUNCTION_NAME;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: name,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:123456789012:function:${name}`,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    // Lambda's ids are random; a count keeps runs reproducible.
    awsRequestId: `${name}-request-${invocations}`,
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done() {},
    fail() {},
    succeed() {},
  };
}

async function invoke(handler, event) {
  const deadline = Date.now() + timeoutMs;
  let timer;
  const timedOut = new Promise((_resolve, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`Task timed out after ${timeoutSeconds} seconds`), { name: 'Sandbox.Timedout' })),
      timeoutMs,
    );
  });
  try {
    const result = await Promise.race([handler(event, contextFor(deadline)), timedOut]);
    return result === undefined ? null : JSON.parse(JSON.stringify(result));
  } finally {
    clearTimeout(timer);
  }
}

let handler;
try {
  const loaded = await import(pathToFileURL(join(taskRoot, `${file}.mjs`)).href);
  handler = loaded[exportName];
  if (typeof handler !== 'function') throw new Error(`${file}.mjs exports no function ${exportName}`);
  process.send({ kind: 'ready' });
} catch (error) {
  process.send({ kind: 'init-error', error: errorOf(error) });
}

process.on('message', async (message) => {
  if (message.kind === 'resolve') {
    // What a bare import from the bundle's folder would find (CommonJS resolution walks the same node_modules folders).
    const require = createRequire(join(taskRoot, `${file}.mjs`));
    const found = message.specifiers.filter((specifier) => {
      try {
        require.resolve(specifier);
        return true;
      } catch {
        return false;
      }
    });
    process.send({ id: message.id, ok: true, result: found });
    return;
  }
  try {
    if (handler === undefined) throw new Error('The function failed to initialise');
    process.send({ id: message.id, ok: true, result: await invoke(handler, message.event) });
  } catch (error) {
    process.send({ id: message.id, ok: false, error: errorOf(error) });
  }
});
