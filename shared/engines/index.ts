/** The engines room: live systems under test behind one Engine port. */
export { askEngines, type AskOptions, type EngineAsk, type LiveEngineOutput } from './ask-engines.js';
export { createEngine, expandEngines, envNamesOf, type EngineCreation, type EnginesCreation, type Environment } from './create-engine.js';
export { engineConfigSchema, engineListSchema, type EngineConfig } from './engine-config.js';
export { describeEngine, type EngineDescription } from './engine-description.js';
export { expandMatrix, type EngineVariant } from './engine-matrix.js';
export type { Engine, EngineAnswer, EngineFailure, EngineHit, EngineRequest, EngineResult } from './engine.js';
