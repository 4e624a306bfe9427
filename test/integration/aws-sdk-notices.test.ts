import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFauxqsClients } from '../support/fauxqs.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/*
 * On Node.js 20 the AWS SDK prints, once per process, a notice that its
 * releases after January 2027 need Node.js 22. assay supports Node.js 20.19
 * and runs on Node.js 24 on Lambda, so the notice is noise in every command's
 * output. Each check runs in a fresh process, since the SDK prints it only
 * once a process, with the switch removed from the environment it inherits.
 */
const PROJECT_ROOT = join(import.meta.dirname, '..', '..');
const SWITCH = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';
const NOTICE = 'NodeVersionSupportWarning';
const BUCKET = 'assay-notices';
const nodeMajor = Number(process.versions.node.split('.')[0]);
/** The scripts live in a temp folder, outside the project's node_modules: they import the SDK by its file. */
const S3_CLIENT_MODULE = pathToFileURL(createRequire(import.meta.url).resolve('@aws-sdk/client-s3')).href;

const aws = useFauxqsClients();
let folder: TempFolder;

beforeAll(async () => {
  folder = await createTempFolder();
  await aws.clients.s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  return () => folder.remove();
});

/** Runs a script or the CLI with Node and tsx, in an environment without the switch; resolves whatever the exit code. */
async function runNode(args: readonly string[]): Promise<{ exitCode: number; stderr: string }> {
  const environment = { ...process.env };
  delete environment[SWITCH];
  try {
    const { stderr } = await promisify(execFile)(process.execPath, args, { cwd: PROJECT_ROOT, env: environment });
    return { exitCode: 0, stderr };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { exitCode: failed.code ?? -1, stderr: failed.stderr ?? '' };
  }
}

/** A script that builds S3 and SQS clients one way, sends one request, then emits a warning of its own. */
async function clientScript(build: 'createAwsClients' | 'the SDK directly'): Promise<string> {
  const clients = join(PROJECT_ROOT, 'shared', 'ports', 'aws-clients.ts');
  const lines =
    build === 'createAwsClients'
      ? [
          `import { createAwsClients } from ${JSON.stringify(clients)};`,
          `const { s3 } = createAwsClients({ endpoint: ${JSON.stringify(aws.fauxqs.endpoint)} });`,
        ]
      : [
          `import { S3Client } from ${JSON.stringify(S3_CLIENT_MODULE)};`,
          `const s3 = new S3Client({ region: 'us-east-1', endpoint: ${JSON.stringify(aws.fauxqs.endpoint)}, forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });`,
        ];
  // .mts: an ES module (with top-level await) though no package.json beside it says so.
  return folder.write(
    `${build.replaceAll(' ', '-')}.mts`,
    [
      ...lines,
      `import { HeadBucketCommand } from ${JSON.stringify(S3_CLIENT_MODULE)};`,
      `await s3.send(new HeadBucketCommand({ Bucket: ${JSON.stringify(BUCKET)} }));`,
      `process.emitWarning('a warning of the script itself');`,
      '',
    ].join('\n'),
  );
}

describe.runIf(nodeMajor < 22)('the AWS SDK notice about Node.js 20', () => {
  it('is printed by clients built without the adapter (the notice this guards against)', async () => {
    const { exitCode, stderr } = await runNode(['--import', 'tsx', await clientScript('the SDK directly')]);

    expect(exitCode, stderr).toBe(0);
    expect(stderr).toContain(NOTICE);
  });

  it('is not printed by clients the adapter builds, and other warnings still are', async () => {
    const { exitCode, stderr } = await runNode(['--import', 'tsx', await clientScript('createAwsClients')]);

    expect(exitCode, stderr).toBe(0);
    expect(stderr).not.toContain(NOTICE);
    expect(stderr).toContain('a warning of the script itself');
  });

  it('is not printed by an assay command that talks to S3', async () => {
    const { exitCode, stderr } = await runNode([
      'cli/bin.js',
      'status',
      'r-0000000000000000',
      '--bucket',
      BUCKET,
      '--aws-endpoint',
      aws.fauxqs.endpoint,
      '--json',
    ]);

    expect(stderr).not.toContain(NOTICE);
    // The command ran and answered (the run is unknown), rather than failing before any request.
    expect(exitCode, stderr).toBeLessThanOrEqual(1);
  });
});
