import { beforeAll } from 'vitest';
import { bedrockAssay, customizedAssay, defaultAssay, enginesAssay, ratedAssay, SYNTH_TIMEOUT_MS } from './support/assay-app.js';
// One subject a module; importing them registers their tests in this file.
import './stack/storage.js';
import './stack/functions.js';
import './stack/alarms.js';
import './stack/least-privilege.js';
import './stack/engines.js';
import './stack/bedrock-judges.js';
import './stack/bedrock-batch.js';
import './stack/judge-rate.js';

/*
 * The CDK assertions on the stack, gathered in one test file so that they
 * share one worker: the first synthesis in a worker costs seconds (loading
 * aws-cdk-lib and cdk-nag), and each of the four settings variants is then
 * synthesized once for all of them.
 */
beforeAll(() => {
  defaultAssay();
  customizedAssay();
  enginesAssay();
  bedrockAssay();
  ratedAssay();
}, SYNTH_TIMEOUT_MS);
