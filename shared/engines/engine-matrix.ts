import type { EngineConfig } from './engine-config.js';
import type { TemplateScalar } from './engine-template.js';

/** One engine of a sweep: its config, the matrix values it runs with, and its name. */
export interface EngineVariant {
  readonly name: string;
  readonly config: EngineConfig;
  readonly variables: Readonly<Record<string, TemplateScalar>>;
}

/**
 * Expands an engine's matrix into one variant per combination, named
 * `<name>@b=0.3,k=10` with the variables in the order the matrix lists them,
 * the first variable varying slowest (as nested loops written in that order
 * would). An engine without a matrix is one variant under its own name.
 */
export function expandMatrix(config: EngineConfig): EngineVariant[] {
  const entries = Object.entries(config.matrix ?? {});
  if (entries.length === 0) return [{ name: config.name, config, variables: {} }];
  let combinations: [string, TemplateScalar][][] = [[]];
  for (const [variable, values] of entries) {
    combinations = combinations.flatMap((combination) =>
      values.map((value): [string, TemplateScalar][] => [...combination, [variable, value]]),
    );
  }
  return combinations.map((combination) => ({
    name: `${config.name}@${combination.map(([variable, value]) => `${variable}=${String(value)}`).join(',')}`,
    config,
    variables: Object.fromEntries(combination),
  }));
}
