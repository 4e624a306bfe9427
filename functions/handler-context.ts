import { Logger } from '@aws-lambda-powertools/logger';
import type { Metrics } from '@aws-lambda-powertools/metrics';

/**
 * What every handler gets besides its own dependencies: a Powertools logger,
 * and on AWS a Powertools metrics instance (the embedded default leaves it out:
 * there is no CloudWatch to flush to).
 */
export interface HandlerTelemetry {
  readonly logger: Logger;
  readonly metrics?: Metrics;
}

/** A logger for local runs: errors only, so the CLI's own output stays readable. */
export function quietTelemetry(): HandlerTelemetry {
  return { logger: new Logger({ serviceName: 'assay', logLevel: 'ERROR' }) };
}
