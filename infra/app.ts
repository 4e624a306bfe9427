import { App } from 'aws-cdk-lib';
import { addAssayStack } from './assay-app.js';

// The CDK CLI runs this file (cdk.json: "app") and synthesizes the app when it exits.
addAssayStack(new App());
