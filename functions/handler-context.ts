import type { Logger } from '@aws-lambda-powertools/logger';
import type { Metrics } from '@aws-lambda-powertools/metrics';

/**
 * What every handler gets besides its own dependencies: a Powertools logger,
 * and on AWS a Powertools metrics instance (the tests leave it out: there is
 * no CloudWatch to flush to; test/support/quiet-telemetry.ts).
 */
export interface HandlerTelemetry {
  readonly logger: Logger;
  readonly metrics?: Metrics;
}
