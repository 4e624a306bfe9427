import { readFile, stat } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { embeddedInfrastructure } from '../../../cli/run/store-and-queues.js';
import { runPipeline } from '../../../cli/run/run-pipeline.js';
import { suiteConfig } from '../../../shared/run/suite-config.js';
import { runKeys } from '../../../shared/run/run-identity.js';
import { createAwsClients } from '../../../shared/ports/aws-clients.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { S3Store } from '../../../shared/ports/s3-store.js';
import { reportSchema, type Report } from '../../../shared/schema/report.js';
import { startFauxqs } from '../../support/fauxqs.js';
import { catalogOracle } from '../../support/judge-oracle.js';
import { startOpenAiTestServer } from '../../support/openai-test-server.js';
import { startSecretsManagerTestServer } from '../../support/secrets-manager-test-server.js';
import { silentProgress } from '../../support/silent-progress.js';
import { createTempFolder } from '../../support/temp-folder.js';
import { PROJECT_ROOT } from '../support/assay-app.js';
import { cliSynthesis, NIGHTLY_SUITE } from '../support/cli-synthesis.js';
import { driveUntilReported } from '../support/emulated-event-sources.js';
import { emulateStack } from '../support/emulated-stack.js';
import { createLambdaSandbox, type SandboxedFunction } from '../support/lambda-sandbox.js';
import { lambdaServiceEnvironment, s3NotificationEvent } from '../support/lambda-service.js';
import { readSynthesizedTemplate } from '../support/synthesized-template.js';

/**
 * The synthesized bundles as Lambda runs them: each in a folder outside the
 * repository with nothing but the AWS SDK beside it, configured only by the
 * environment the template gives it, fed the events Lambda would feed it,
 * over S3 and SQS on fauxqs. A bundle that needs a package the runtime does
 * not ship, or reads a variable the stack does not set, fails here.
 */
const DATASET = join(PROJECT_ROOT, 'examples', 'datasets', 'search-assistant.jsonl');
/** A file name S3 encodes in its event (a space becomes "+", a "+" becomes "%2B"). */
const DATASET_KEY = `datasets/${NIGHTLY_SUITE}/search assistant+v2.jsonl`;
const SUITE_CONFIG = 'judges: [chunk_relevance, correctness, document_recall]\nrun:\n  check_delay_seconds: 0\n';
const JUDGE_KEY = 'sk-deployed-bundle-test';
/** Required by dependencies only when asked for, in a try block or behind a feature: absent from the runtime, and never loaded. */
const OPTIONAL_REQUIRES = new Set(['pg-native', 'supports-color']);
const FLOW_TIMEOUT_MS = 120_000;

const metafileSchema = z.object({
  outputs: z.record(
    z.string(),
    z.object({ imports: z.array(z.object({ path: z.string(), kind: z.string(), external: z.boolean().optional() })) }),
  ),
});
const ingestOutcomesSchema = z.array(z.object({ kind: z.literal('started'), runId: z.string(), cases: z.number() }));
const scheduledOutcomesSchema = z.array(
  z.object({ suite: z.string(), outcome: z.object({ kind: z.literal('started'), runId: z.string() }) }),
);

/** Whatever the bundle imports at run time without having it inside: from its esbuild metafile. */
async function externalsOf(assetFolder: string): Promise<string[]> {
  const metafile = metafileSchema.parse(JSON.parse(await readFile(join(assetFolder, 'index.meta.json'), 'utf8')));
  const paths = Object.values(metafile.outputs).flatMap((output) =>
    output.imports.filter((entry) => entry.external === true).map((entry) => entry.path),
  );
  return [...new Set(paths)].sort();
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('the deployed bundles', () => {
  it('leave out only Node.js built-ins, the AWS SDK the runtime ships, and the optional requires', async () => {
    const { functions } = await readSynthesizedTemplate(cliSynthesis().outdir);

    expect(functions).toHaveLength(5);
    for (const fn of functions) {
      const externals = await externalsOf(fn.assetFolder);
      expect(externals, fn.logicalId).toContain('@aws-sdk/client-s3');
      expect(
        externals.filter((path) => !isBuiltin(path) && !path.startsWith('@aws-sdk/') && !OPTIONAL_REQUIRES.has(path)),
        fn.logicalId,
      ).toEqual([]);
    }
  });

  it(
    'run an upload and the nightly schedule through to report.json with the metrics of an embedded run, with nothing but the AWS SDK beside them',
    async () => {
      // Prepare: the emulated stack, the judge server and the judge key's secret, and every function started in its sandbox
      const fauxqs = await startFauxqs();
      cleanups.push(() => fauxqs.close());
      const judgeServer = await startOpenAiTestServer({ oracle: catalogOracle });
      cleanups.push(() => judgeServer.close());
      const secrets = await startSecretsManagerTestServer({ value: JUDGE_KEY });
      cleanups.push(() => secrets.close());
      const clients = createAwsClients({ endpoint: fauxqs.endpoint });
      cleanups.push(async () => {
        clients.s3.destroy();
        clients.sqs.destroy();
      });
      const template = await readSynthesizedTemplate(cliSynthesis().outdir);
      const stack = await emulateStack(template, clients);
      const sandbox = await createLambdaSandbox(join(PROJECT_ROOT, 'node_modules'));
      cleanups.push(() => sandbox.close());
      // What the deployment points elsewhere: S3 and SQS (ASSAY_AWS_ENDPOINT), Secrets Manager (the SDK's own variable), the judge server.
      const endpoints = { ASSAY_AWS_ENDPOINT: fauxqs.endpoint, AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint };
      const functions = new Map<string, SandboxedFunction>(
        await Promise.all(
          template.functions.map(async (fn): Promise<[string, SandboxedFunction]> => {
            const environment = stack.environmentOf(fn);
            expect(environment.OPENAI_BASE_URL, fn.logicalId).toBe('https://api.openai.com/v1');
            const lambda = lambdaServiceEnvironment(fn, sandbox.folder);
            return [
              fn.logicalId,
              await sandbox.start(fn, { ...lambda, ...environment, ...endpoints, OPENAI_BASE_URL: judgeServer.baseUrl }),
            ];
          }),
        ),
      );
      const lambda = (logicalId: string): SandboxedFunction => {
        const fn = functions.get(logicalId);
        if (fn === undefined) throw new Error(`No function ${logicalId} in the template`);
        return fn;
      };
      // The sandbox's precondition: a bare import from a bundle finds the AWS SDK and nothing else of the project's.
      const projectPackages = await packagesOfProject();
      for (const fn of functions.values()) {
        expect(await fn.resolvable(projectPackages), fn.logicalId).toEqual(projectPackages.filter((name) => name.startsWith('@aws-sdk/')));
      }
      const [notification] = template.notifications;
      const [schedule] = template.schedules;
      if (notification === undefined || schedule === undefined)
        throw new Error('Expected a bucket notification and a schedule in the template');
      const store = new S3Store(clients.s3, stack.bucketName(notification.bucket));
      await store.put(`config/${NIGHTLY_SUITE}.yaml`, SUITE_CONFIG);
      const { etag } = await store.upload(DATASET_KEY, DATASET);

      expect(DATASET_KEY.startsWith(notification.prefix) && notification.events.includes('s3:ObjectCreated:*')).toBe(true);

      // Act: the upload's notification, the nightly schedule, then the event source mappings until both runs are reported
      const [uploaded] = ingestOutcomesSchema.parse(
        await lambda(notification.functionId).invoke(
          s3NotificationEvent(stack.bucketName(notification.bucket), DATASET_KEY, etag, (await stat(DATASET)).size),
        ),
      );
      const [nightly] = scheduledOutcomesSchema.parse(await lambda(schedule.functionId).invoke(schedule.input));
      const runIds = [uploaded?.runId, nightly?.outcome.runId].filter((id) => id !== undefined);
      const { problems } = await driveUntilReported(template, stack, lambda, runIds);

      // Assess: both runs reported, with the embedded run's metrics, and no function logged an error
      const logs = [...functions.values()].map((fn) => `--- ${fn.logicalId}\n${fn.logs()}`).join('\n');
      expect(problems, logs).toEqual([]);
      expect(runIds).toHaveLength(2);
      const embedded = await embeddedReport(judgeServer.baseUrl, template.functions[0]?.properties.Environment.Variables.ASSAY_JUDGE_MODEL);
      for (const runId of runIds) {
        const bytes = await store.get(runKeys.report(NIGHTLY_SUITE, runId, 'report.json'));
        const report = reportSchema.parse(JSON.parse(new TextDecoder().decode(bytes)));
        expect(report.dataset).toBe(DATASET_KEY);
        expect(report.cases).toEqual({ total: 12, evaluated: 12, failed: 0, missing: 0, judge_failed: 0 });
        expect(report.judge).toBe(`LLM judge gpt-4o-mini at ${new URL(judgeServer.baseUrl).host}, temperature 0, cached`);
        expect(report.engines).toEqual(embedded.engines);
      }
      expect(judgeServer.log.every((call) => call.authorization === `Bearer ${JUDGE_KEY}`)).toBe(true);
      expect(logs).not.toMatch(/"level":"ERROR"/);
    },
    FLOW_TIMEOUT_MS,
  );
});

/** Every package the project depends on, for the run time and for development. */
async function packagesOfProject(): Promise<string[]> {
  const manifest = z.object({ dependencies: z.record(z.string(), z.string()), devDependencies: z.record(z.string(), z.string()) });
  const { dependencies, devDependencies } = manifest.parse(JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')));
  return [...Object.keys(dependencies), ...Object.keys(devDependencies)].sort();
}

/** `assay run` of the same dataset and suite config, on one machine, against the same judge server. */
async function embeddedReport(judgeBaseUrl: string, judgeModel: unknown): Promise<Report> {
  const folder = await createTempFolder();
  cleanups.push(() => folder.remove());
  const configStore = new MemoryStore();
  await configStore.put(`config/${NIGHTLY_SUITE}.yaml`, SUITE_CONFIG);
  await runPipeline(
    {
      datasetPath: DATASET,
      suite: NIGHTLY_SUITE,
      config: await suiteConfig(configStore, NIGHTLY_SUITE),
      strict: false,
      noCache: true,
      concurrency: 4,
      outFolder: join(folder.path, 'out'),
      environment: { OPENAI_API_KEY: JUDGE_KEY, OPENAI_BASE_URL: judgeBaseUrl, ASSAY_JUDGE_MODEL: z.string().parse(judgeModel) },
    },
    embeddedInfrastructure(join(folder.path, 'store'), 1),
    silentProgress,
  );
  return reportSchema.parse(JSON.parse(await readFile(join(folder.path, 'out', 'report.json'), 'utf8')));
}
