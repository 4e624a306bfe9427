import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * The parts of a synthesized template (cdk.out) that say how the deployed
 * functions run: each Node.js function with its bundle, environment, handler
 * and timeout; the queues; what feeds each function (event source mappings,
 * the bucket notification, the schedule). Parsed with zod, so a template of
 * another shape fails here by name rather than deep in a test.
 */
const reference = z.object({ Ref: z.string() });
const attribute = z.object({ 'Fn::GetAtt': z.tuple([z.string(), z.string()]) });
/** A value CloudFormation resolves at deploy time: a literal, or a reference to a resource of the template. */
export const templateValueSchema = z.union([z.string(), reference, attribute]);
export type TemplateValue = z.infer<typeof templateValueSchema>;

const functionSchema = z.object({
  Type: z.literal('AWS::Lambda::Function'),
  Properties: z.object({
    Runtime: z.string(),
    Handler: z.string(),
    Timeout: z.number().int().positive(),
    MemorySize: z.number().int().positive(),
    Code: z.object({ S3Key: z.string() }),
    Environment: z.object({ Variables: z.record(z.string(), templateValueSchema) }),
  }),
});

const queueSchema = z.object({
  Type: z.literal('AWS::SQS::Queue'),
  Properties: z
    .object({
      VisibilityTimeout: z.number().int().optional(),
      MessageRetentionPeriod: z.number().int().optional(),
      RedrivePolicy: z.object({ deadLetterTargetArn: attribute, maxReceiveCount: z.number().int() }).optional(),
    })
    .default({}),
});

const mappingSchema = z.object({
  Type: z.literal('AWS::Lambda::EventSourceMapping'),
  Properties: z.object({ BatchSize: z.number().int().positive(), EventSourceArn: attribute, FunctionName: reference }),
});

const notificationSchema = z.object({
  Type: z.literal('Custom::S3BucketNotifications'),
  Properties: z.object({
    BucketName: reference,
    NotificationConfiguration: z.object({
      LambdaFunctionConfigurations: z.array(
        z.object({
          Events: z.array(z.string()),
          Filter: z.object({ Key: z.object({ FilterRules: z.array(z.object({ Name: z.string(), Value: z.string() })) }) }),
          LambdaFunctionArn: attribute,
        }),
      ),
    }),
  }),
});

const scheduleSchema = z.object({
  Type: z.literal('AWS::Scheduler::Schedule'),
  Properties: z.object({ Target: z.object({ Arn: attribute, Input: z.string() }) }),
});

const assetsSchema = z.object({ files: z.record(z.string(), z.object({ source: z.object({ path: z.string() }) })) });

export interface SynthesizedFunction {
  readonly logicalId: string;
  /** The folder of its bundle in cdk.out (index.mjs, its source map, index.meta.json). */
  readonly assetFolder: string;
  readonly properties: z.infer<typeof functionSchema>['Properties'];
}

export interface SynthesizedTemplate {
  readonly resourceTypes: ReadonlyMap<string, string>;
  readonly functions: readonly SynthesizedFunction[];
  readonly queues: ReadonlyMap<string, z.infer<typeof queueSchema>['Properties']>;
  readonly mappings: readonly { readonly queue: string; readonly functionId: string; readonly batchSize: number }[];
  readonly notifications: readonly {
    readonly bucket: string;
    readonly functionId: string;
    readonly prefix: string;
    readonly events: readonly string[];
  }[];
  readonly schedules: readonly { readonly functionId: string; readonly input: unknown }[];
}

/** The template in `outdir` and where each function's bundle is. */
export async function readSynthesizedTemplate(outdir: string): Promise<SynthesizedTemplate> {
  const templateFile = (await readdir(outdir)).find((name) => name.endsWith('.template.json'));
  if (templateFile === undefined) throw new Error(`No *.template.json in ${outdir}`);
  const template = z
    .object({ Resources: z.record(z.string(), z.object({ Type: z.string() }).loose()) })
    .parse(JSON.parse(await readFile(join(outdir, templateFile), 'utf8')));
  const assets = assetsSchema.parse(
    JSON.parse(await readFile(join(outdir, templateFile.replace('.template.json', '.assets.json')), 'utf8')),
  );
  const resources = Object.entries(template.Resources);
  const ofType = <T extends z.ZodType>(type: string, schema: T): [string, z.infer<T>][] =>
    resources.filter(([, resource]) => resource.Type === type).map(([id, resource]) => [id, schema.parse(resource)]);

  const functions = ofType('AWS::Lambda::Function', z.object({ Properties: z.object({ Runtime: z.string().optional() }) }).loose())
    .filter(([, resource]) => resource.Properties.Runtime?.startsWith('nodejs') === true)
    .map(([logicalId]): SynthesizedFunction => {
      const properties = functionSchema.parse(template.Resources[logicalId]).Properties;
      const asset = assets.files[properties.Code.S3Key.replace(/\.zip$/, '')];
      if (asset === undefined) throw new Error(`No asset for the code of ${logicalId} (${properties.Code.S3Key})`);
      return { logicalId, assetFolder: join(outdir, asset.source.path), properties };
    });
  return {
    resourceTypes: new Map(resources.map(([id, resource]) => [id, resource.Type])),
    functions,
    queues: new Map(ofType('AWS::SQS::Queue', queueSchema).map(([id, queue]) => [id, queue.Properties])),
    mappings: ofType('AWS::Lambda::EventSourceMapping', mappingSchema).map(([, { Properties }]) => ({
      queue: Properties.EventSourceArn['Fn::GetAtt'][0],
      functionId: Properties.FunctionName.Ref,
      batchSize: Properties.BatchSize,
    })),
    notifications: ofType('Custom::S3BucketNotifications', notificationSchema).flatMap(([, { Properties }]) =>
      Properties.NotificationConfiguration.LambdaFunctionConfigurations.map((configuration) => ({
        bucket: Properties.BucketName.Ref,
        functionId: configuration.LambdaFunctionArn['Fn::GetAtt'][0],
        prefix: configuration.Filter.Key.FilterRules.find((rule) => rule.Name === 'prefix')?.Value ?? '',
        events: configuration.Events,
      })),
    ),
    schedules: ofType('AWS::Scheduler::Schedule', scheduleSchema).map(([, { Properties }]) => ({
      functionId: Properties.Target.Arn['Fn::GetAtt'][0],
      input: JSON.parse(Properties.Target.Input) as unknown,
    })),
  };
}
