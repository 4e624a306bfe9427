import { z } from 'zod';
import { converseResponse, type ConverseBody } from '../bedrock-test-server.js';
import { writeResultLines, type ResultLineShape, type WrittenResult } from '../openai-batch/broken-lines.js';
import type { OutputFaults } from './job-context.js';
import type { InputRecord, RecordOutcome } from './record-answers.js';

/**
 * What a finished job writes to S3, as Bedrock does: the records that ran,
 * in `<output>/<job id>/<input name>.out` (in reverse, so a reader by
 * position fails, and broken as the plan says), and `manifest.json.out`
 * with the counts.
 */
export type OutputLine = { readonly recordId: string; readonly modelInput: ConverseBody } & RecordOutcome;

export interface OutputObject {
  readonly uri: string;
  readonly text: string;
}

export interface JobOutput {
  readonly objects: readonly OutputObject[];
  /** What `<input>.out` holds; undefined when the job wrote none. */
  readonly written: WrittenResult | undefined;
}

export interface FinishedJob {
  readonly jobId: string;
  readonly inputUri: string;
  readonly outputUri: string;
  readonly total: number;
  readonly results: readonly { readonly record: InputRecord; readonly outcome: RecordOutcome }[];
}

const usageSchema = z.object({ modelOutput: z.object({ usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }) }) });

export function jobOutput(job: FinishedJob, faults: OutputFaults): JobOutput {
  const folder = `${job.outputUri.replace(/\/+$/, '')}/${job.jobId}/`;
  const inputName = job.inputUri.split('/').at(-1) ?? 'input.jsonl';
  const lines: OutputLine[] = [...job.results]
    .reverse()
    .map(({ record, outcome }) => ({ recordId: record.recordId, modelInput: record.modelInput, ...outcome }));
  const written = lines.length > 0 || (faults.unknownIdLines ?? 0) > 0 ? writeResultLines(lines, faults, shapeOf(job.jobId)) : undefined;
  const succeeded = job.results.filter(({ outcome }) => 'modelOutput' in outcome).length;
  const manifest = {
    totalRecordCount: job.total,
    processedRecordCount: job.results.length,
    successRecordCount: succeeded,
    errorRecordCount: job.results.length - succeeded,
    inputTokenCount: 0,
    outputTokenCount: 0,
  };
  return {
    objects: [
      ...(written === undefined ? [] : [{ uri: `${folder}${inputName}.out`, text: written.text }]),
      { uri: `${folder}manifest.json.out`, text: JSON.stringify(manifest) },
    ],
    written,
  };
}

function shapeOf(jobId: string): ResultLineShape<OutputLine> {
  return {
    idOf: (line) => line.recordId,
    usageOf: (line) => {
      const parsed = usageSchema.safeParse(line);
      return parsed.success
        ? { input: parsed.data.modelOutput.usage.inputTokens, output: parsed.data.modelOutput.usage.outputTokens }
        : undefined;
    },
    withAnswerOf: (line, other) => ({ recordId: line.recordId, modelInput: line.modelInput, ...answerOf(other) }),
    unknownLine: (index, like) => ({
      recordId: `unknown-${jobId}-${index + 1}`,
      modelInput: like?.modelInput ?? { messages: [{ role: 'user', content: [{ text: 'a record of no job' }] }] },
      modelOutput: like !== undefined && 'modelOutput' in like ? like.modelOutput : answerToNoRecord(index),
    }),
  };
}

function answerOf(line: OutputLine): RecordOutcome {
  return 'modelOutput' in line ? { modelOutput: line.modelOutput } : { error: line.error };
}

/** A Converse answer for an unknown line when the job answered none of its own to borrow. */
function answerToNoRecord(index: number): object {
  const request = { model: 'unknown', messages: [{ role: 'user', content: 'a record of no job' }] };
  return converseResponse(request, { text: 'An answer to no record of this job.' }, index);
}
