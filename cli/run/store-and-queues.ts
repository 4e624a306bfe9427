import { DEFAULT_WORK_FOLDERS, workFolderPath } from '../../shared/run/work-folders.js';
import { systemClock, type Clock } from '../../shared/ports/clock.js';
import { InProcessQueue } from '../../shared/ports/in-process-queue.js';
import type { QueueSpoolOptions } from '../../shared/ports/message-spool.js';
import { LocalFolderStore } from '../../shared/ports/local-folder-store.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { WorkQueue } from '../../shared/ports/work-queue.js';
import { shellWord } from '../shell-word.js';

/** Where a run keeps its objects and queues: a local folder and in-process queues, or S3 and SQS. */
export interface Infrastructure {
  readonly store: ObjectStore;
  readonly bucket: string;
  readonly cases: WorkQueue;
  readonly deadLetters: WorkQueue;
  readonly control: WorkQueue;
  /** How long a received message stays hidden; workers extend it while they still work on one. */
  readonly visibilityTimeoutSeconds: number;
  /** The queues' time, which the drive's waits and heartbeats keep too: the wall's, or a test's simulated one (embedded). */
  readonly clock: Clock;
  readonly description: string;
  /** The options that name this store to another command, e.g. `--store /path` for `assay status`. */
  readonly storeOptions: string;
  /** The options that name this store and its queues to `assay resume` and `assay redrive`: `--store /path`, or `--aws-endpoint URL`. */
  readonly finishOptions: string;
  /** The store's local folder, in the embedded default: worker threads open it for themselves. */
  readonly storeFolder?: string;
  /** What a run over this store cannot promise, a line each for stderr: an endpoint whose S3 ignores If-None-Match. */
  readonly warnings: readonly string[];
}

/** Receives before a case message goes to the dead-letter queue, as the deployed stack sets it. */
export const MAX_RECEIVE_COUNT = 3;

/** Bytes of case message bodies an in-process queue holds in memory before it spools the rest to disk. */
export const QUEUE_MEMORY_BYTES = 32 * 1024 * 1024;

/** How the embedded case queues spool: memory bound, spool file size, and where their folders go (work-folders.ts's parent by default). */
export interface EmbeddedSpool extends Omit<QueueSpoolOptions, 'folder'> {
  readonly parent?: string;
}

/**
 * The embedded default: the store folder (`.assay/` unless --store says
 * otherwise) and in-process queues with SQS's semantics. The visibility
 * timeout is short because a failed case here should come back in seconds,
 * not after a Lambda-sized timeout. The cases queue and its dead-letter
 * queue keep QUEUE_MEMORY_BYTES of messages in memory and spool the rest to
 * `<temp>/assay-work/` (a folder a later ingest removes if this process dies
 * with messages still spooled), so a run of any number of cases holds only
 * the messages its workers have in hand. The queues keep the wall's time
 * unless given a clock: a test's simulated one runs a run's waits (visibility
 * timeouts, delays, polls) without spending them.
 */
export function embeddedInfrastructure(
  storeFolder: string,
  visibilityTimeoutSeconds = 2,
  spool: EmbeddedSpool = { memoryBytes: QUEUE_MEMORY_BYTES },
  clock: Clock = systemClock,
): Infrastructure {
  const { parent = DEFAULT_WORK_FOLDERS.parent, ...bounds } = spool;
  const spoolFor = (purpose: string): QueueSpoolOptions => ({
    ...bounds,
    folder: workFolderPath({ ...DEFAULT_WORK_FOLDERS, parent }, purpose),
  });
  const deadLetters = new InProcessQueue('assay-cases-dlq', { visibilityTimeoutSeconds, clock, spool: spoolFor('dead-letter-spool') });
  return {
    store: new LocalFolderStore(storeFolder),
    bucket: storeFolder,
    cases: new InProcessQueue('assay-cases', {
      visibilityTimeoutSeconds,
      clock,
      redrive: { deadLetterQueue: deadLetters, maxReceiveCount: MAX_RECEIVE_COUNT },
      spool: spoolFor('case-spool'),
    }),
    deadLetters,
    control: new InProcessQueue('assay-control', { visibilityTimeoutSeconds, clock }),
    visibilityTimeoutSeconds,
    clock,
    description: `store ${storeFolder}, in-process queues`,
    storeOptions: `--store ${shellWord(storeFolder)}`,
    finishOptions: `--store ${shellWord(storeFolder)}`,
    storeFolder,
    // The local folder's write-once puts are links, refused when the name is taken.
    warnings: [],
  };
}

/**
 * S3 and SQS at an endpoint (an emulator, or AWS itself); the bucket and
 * queues are created if absent. The AWS SDK is loaded here, on first use, so
 * an embedded run never loads it.
 */
export async function awsInfrastructure(endpoint: string, bucket = 'assay', visibilityTimeoutSeconds = 5): Promise<Infrastructure> {
  const [
    { createAwsClients, ensureAwsResources },
    { S3Store },
    { refusesSecondWriteOnce, writeOnceIgnoredWarning },
    { awsEndpointFaultOf },
  ] = await Promise.all([
    import('../../shared/ports/aws-clients.js'),
    import('../../shared/ports/s3-store.js'),
    import('../../shared/ports/write-once-probe.js'),
    import('../../shared/ports/aws-endpoint-fault.js'),
  ]);
  const clients = createAwsClients({ endpoint });
  // The first calls to the endpoint: one that answers nothing, or answers as no S3 does, is said so here (aws-endpoint-fault.ts).
  const { resources, refuses } = await Promise.resolve()
    .then(async () => {
      const resources = await ensureAwsResources(clients, {
        bucket,
        casesQueue: 'assay-cases',
        deadLetterQueue: 'assay-cases-dlq',
        controlQueue: 'assay-control',
        maxReceiveCount: MAX_RECEIVE_COUNT,
        visibilityTimeoutSeconds,
      });
      return { resources, refuses: await refusesSecondWriteOnce(new S3Store(clients.s3, bucket, { endpoint })) };
    })
    .catch((error: unknown) => {
      throw awsEndpointFaultOf(error, endpoint) ?? error;
    });
  const host = new URL(endpoint).host;
  return {
    store: new S3Store(clients.s3, bucket, { lookBeforeWriteOnce: !refuses, endpoint }),
    bucket,
    cases: resources.cases,
    deadLetters: resources.deadLetters,
    control: resources.control,
    visibilityTimeoutSeconds,
    clock: systemClock,
    description: `bucket ${bucket} and SQS queues at ${host}`,
    storeOptions: `--bucket ${bucket} --aws-endpoint ${endpoint}`,
    finishOptions: `--aws-endpoint ${endpoint}`,
    warnings: refuses ? [] : [writeOnceIgnoredWarning(host)],
  };
}
