import { beforeAll } from 'vitest';
import { customizedAssay, defaultAssay, enginesAssay, ratedAssay, SYNTH_TIMEOUT_MS } from './support/assay-app.js';
// One subject a module; importing them registers their tests in this file.
import './stack/storage.js';
import './stack/functions.js';
import './stack/alarms.js';
import './stack/least-privilege.js';
import './stack/engines.js';
import './stack/judge-rate.js';

/*
 * The CDK assertions on the stack, gathered in one test file so that they
 * share one worker: the first synthesis in a worker costs seconds (loading
 * aws-cdk-lib and cdk-nag), and each of the three settings variants is then
 * synthesized once for all of them.
 */
beforeAll(() => {
  defaultAssay();
  customizedAssay();
  enginesAssay();
  ratedAssay();
}, SYNTH_TIMEOUT_MS);
