import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AssayStack } from './assay-stack.js';
import { readSettings } from './settings.js';

/**
 * Adds the assay stack to an app, with its settings from the app's context,
 * and the AWS Solutions checks of cdk-nag: an unacknowledged finding fails
 * the synthesis. The tests build the app the same way.
 */
export function addAssayStack(app: App): AssayStack {
  const settings = readSettings(app.node);
  const stack = new AssayStack(app, settings.stackName, {
    settings,
    description: 'assay: queue-driven evaluation of search and RAG systems (bucket, queues, functions, nightly schedule, alarms)',
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}
