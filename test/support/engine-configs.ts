import { createEngine, type Environment } from '../../shared/engines/create-engine.js';
import { engineConfigSchema, type EngineConfig } from '../../shared/engines/engine-config.js';
import { expandMatrix } from '../../shared/engines/engine-matrix.js';
import type { Engine } from '../../shared/engines/engine.js';

/** An engine config as the config file would give it, parsed (defaults filled in); throws on a bad one, since a test wrote it. */
export function engineConfig(input: Record<string, unknown>): EngineConfig {
  return engineConfigSchema.parse(input);
}

/** Builds the engines of one config entry (every matrix variant), failing the test if one cannot be built. */
export function buildEngines(input: Record<string, unknown>, env: Environment = {}): Engine[] {
  return expandMatrix(engineConfig(input)).map((variant) => {
    const created = createEngine(variant, env);
    if (!created.ok) throw new Error(created.error);
    return created.value;
  });
}

/** The one engine of a config entry without a matrix. */
export function buildEngine(input: Record<string, unknown>, env: Environment = {}): Engine {
  const [engine] = buildEngines(input, env);
  if (engine === undefined) throw new Error('the config gave no engine');
  return engine;
}

/** A deadline far enough away that only the engine's own timeout can stop a call. */
export function farDeadline(): AbortSignal {
  return new AbortController().signal;
}
