import { Logger } from '@aws-lambda-powertools/logger';
import type { HandlerTelemetry } from '../../functions/handler-context.js';

/** What the tests give a handler they build: a logger of errors only, so a test's output stays readable, and no metrics. */
export function quietTelemetry(): HandlerTelemetry {
  return { logger: new Logger({ serviceName: 'assay', logLevel: 'ERROR' }) };
}
