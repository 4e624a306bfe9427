import { InvokeCommand, type InvokeCommandOutput, LambdaClient } from '@aws-sdk/client-lambda';
import { checkedExpression, mapAnswer } from './answer-mapping.js';
import { awsCredentials, awsFailure } from './aws-support.js';
import type { LambdaConnectorConfig } from './connector-configs.js';
import { templateValues, type ConnectorContext } from './connector-context.js';
import type { Connector, ConnectorResult, EngineRequest } from './engine.js';
import { excerpt, permanent, transient } from './engine-failure.js';
import { renderJson, renderText } from './engine-template.js';

/**
 * A search function on AWS Lambda, invoked synchronously with the rendered
 * payload; its JSON answer is mapped with `results` and `response` as for
 * http. An error the function raised is permanent, except Lambda's own
 * "Task timed out", which another attempt may not meet. The SDK reads the
 * whole answer (Lambda caps a synchronous one at 6 MB), so max_answer_bytes
 * is checked on the payload it gives.
 */
export function lambdaConnector(config: LambdaConnectorConfig, context: ConnectorContext, maxAnswerBytes: number): Connector {
  const client = new LambdaClient({
    region: config.region,
    credentials: awsCredentials(context.env),
    maxAttempts: 1,
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
  });
  const results = checkedExpression(config.results);
  const response = config.response === undefined ? undefined : checkedExpression(config.response);
  const target = `lambda ${config.function_name} (${config.region})`;

  async function attempt(request: EngineRequest, signal: AbortSignal): Promise<ConnectorResult> {
    const values = templateValues(request, context);
    let output: InvokeCommandOutput;
    try {
      output = await client.send(
        new InvokeCommand({
          FunctionName: renderText(config.function_name, values),
          InvocationType: 'RequestResponse',
          Payload: new TextEncoder().encode(JSON.stringify(renderJson(config.payload, values))),
        }),
        { abortSignal: signal },
      );
    } catch (error) {
      return awsFailure(target, error);
    }
    const size = output.Payload?.byteLength ?? 0;
    if (size > maxAnswerBytes)
      return permanent(
        `${target}: the function's answer is ${size} bytes, above max_answer_bytes (${maxAnswerBytes} bytes) (fix: return fewer or shorter hits, or raise max_answer_bytes)`,
      );
    const text = output.Payload === undefined ? '' : new TextDecoder().decode(output.Payload);
    if (output.FunctionError !== undefined) {
      const message = `${target}: the function failed (${output.FunctionError}): ${excerpt(text) || '(no payload)'}`;
      return /Task timed out/.test(text) ? transient(message) : permanent(message);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return permanent(`${target}: the function answered with a payload that is not JSON: ${excerpt(text) || '(empty)'}`);
    }
    const mapped = mapAnswer(json, results, response);
    return mapped.ok ? mapped : permanent(`${target}: ${mapped.error.message}`);
  }

  return { attempt, close: async () => client.destroy() };
}
