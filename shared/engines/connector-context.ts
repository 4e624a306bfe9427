import type { TemplateScalar, TemplateValues } from './engine-template.js';
import type { EngineRequest } from './engine.js';

/** What a connector is built with besides its config block: the variant's matrix values and the environment. */
export interface ConnectorContext {
  readonly variables: Readonly<Record<string, TemplateScalar>>;
  /** Where `{{env.NAME}}`, connection strings and AWS credentials are read: injected, never process.env directly. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

export function templateValues(request: EngineRequest, context: ConnectorContext): TemplateValues {
  return { query: request.query, request_id: request.request_id, variables: context.variables, env: context.env };
}
