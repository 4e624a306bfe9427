import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { AwsClients } from '../../../shared/ports/aws-clients.js';
import { SqsQueue } from '../../../shared/ports/sqs-queue.js';
import type { SynthesizedFunction, SynthesizedTemplate, TemplateValue } from './synthesized-template.js';

/**
 * The synthesized stack's bucket, queues and secret, made on the S3/SQS
 * emulator: each resource is named after its logical id, each queue has the
 * template's visibility timeout, retention and redrive policy, and a
 * function's environment is the template's with every reference resolved to
 * what the emulator made (as CloudFormation resolves it on deployment).
 */
export interface EmulatedStack {
  /** A function's environment variables, as the template sets them, resolved. */
  environmentOf(fn: SynthesizedFunction): Record<string, string>;
  queue(logicalId: string): SqsQueue;
  bucketName(logicalId: string): string;
}

/** The account and region the emulated ARNs name; nothing real. */
const ACCOUNT = '123456789012';
const REGION = 'us-east-1';

export async function emulateStack(template: SynthesizedTemplate, clients: AwsClients): Promise<EmulatedStack> {
  const queues = new Map<string, { url: string; arn: string }>();
  // Dead-letter queues first: a queue's redrive policy names its dead-letter queue's ARN.
  const ordered = [...template.queues].sort(
    ([, a], [, b]) => Number(a.RedrivePolicy !== undefined) - Number(b.RedrivePolicy !== undefined),
  );
  for (const [logicalId, properties] of ordered) {
    const attributes: Record<string, string> = {};
    if (properties.VisibilityTimeout !== undefined) attributes.VisibilityTimeout = String(properties.VisibilityTimeout);
    if (properties.MessageRetentionPeriod !== undefined) attributes.MessageRetentionPeriod = String(properties.MessageRetentionPeriod);
    if (properties.RedrivePolicy !== undefined) {
      const target = queues.get(properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0]);
      if (target === undefined) throw new Error(`The dead-letter queue of ${logicalId} is not a queue of the template`);
      attributes.RedrivePolicy = JSON.stringify({
        deadLetterTargetArn: target.arn,
        maxReceiveCount: properties.RedrivePolicy.maxReceiveCount,
      });
    }
    const { QueueUrl: url } = await clients.sqs.send(new CreateQueueCommand({ QueueName: logicalId, Attributes: attributes }));
    const { Attributes } = await clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
    if (url === undefined || Attributes?.QueueArn === undefined) throw new Error(`The emulator made no queue ${logicalId}`);
    queues.set(logicalId, { url, arn: Attributes.QueueArn });
  }

  const buckets = new Set<string>();
  const bucketName = (logicalId: string): string => logicalId.toLowerCase();
  for (const [logicalId, type] of template.resourceTypes) {
    if (type !== 'AWS::S3::Bucket') continue;
    await clients.s3.send(new CreateBucketCommand({ Bucket: bucketName(logicalId) }));
    buckets.add(logicalId);
  }

  const resolve = (value: TemplateValue, where: string): string => {
    if (typeof value === 'string') return value;
    if (!('Ref' in value)) throw new Error(`${where}: Fn::GetAtt ${value['Fn::GetAtt'].join('.')} is not emulated`);
    const logicalId = value.Ref;
    const type = template.resourceTypes.get(logicalId);
    // CloudFormation's Ref of each: a bucket's name, a queue's URL, a secret's ARN.
    if (type === 'AWS::S3::Bucket' && buckets.has(logicalId)) return bucketName(logicalId);
    if (type === 'AWS::SQS::Queue') return queues.get(logicalId)?.url ?? `no queue ${logicalId}`;
    if (type === 'AWS::SecretsManager::Secret') return `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${logicalId}-AbCdEf`;
    throw new Error(`${where}: Ref ${logicalId} (${String(type)}) is not emulated`);
  };

  return {
    environmentOf: (fn) =>
      Object.fromEntries(
        Object.entries(fn.properties.Environment.Variables).map(([name, value]) => [name, resolve(value, `${fn.logicalId} ${name}`)]),
      ),
    queue(logicalId) {
      const queue = queues.get(logicalId);
      if (queue === undefined) throw new Error(`No queue ${logicalId} in the template`);
      return new SqsQueue(clients.sqs, queue.url, logicalId);
    },
    bucketName(logicalId) {
      if (!buckets.has(logicalId)) throw new Error(`No bucket ${logicalId} in the template`);
      return bucketName(logicalId);
    },
  };
}
