/**
 * The config's single entry point: the schema of the whole config file with
 * its defaults, parseRunConfig (the only way to read a config, from a file or
 * from a run's manifest), and what a parsed config decides: which judges a
 * run has. Files inside shared/config import each other, never this index.
 */
export { configFileSchema, runConfigSchema, runSettingsSchema, type ConfigFile, type RunConfig } from './config-schema.js';
export { parseRunConfig, type StoredConfigOrigin } from './parse-run-config.js';
export { loadConfigFile, readConfigFile } from './config-file.js';
export { parseConfigText, type ConfigText } from './config-text.js';
export { callsJudges, DEFAULT_LLM_JUDGES, judgesForRun, type RunJudges } from './default-judges.js';
export { overridesOf, parseJudgeReference, resolveJudge, selectJudges, VARIANT_MODEL, type JudgeReference } from './judge-selection.js';
export { checkJudgeCeiling, modelsOfRun, type ModelEnvironment } from './judge-price-checks.js';
