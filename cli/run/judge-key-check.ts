import { callsJudges, type ConfigFile } from '../../shared/config/index.js';
import { llmRequestOf, type LlmRequest } from '../../shared/config/llm-request.js';
import { chooseProvider, type JudgeEnvironment } from '../../shared/judge-client/judge-provider.js';
import { runConfigOf, StoredConfigError } from '../../shared/run/stored-config.js';
import type { Manifest } from '../../shared/schema/run-records.js';
import { LLM_JUDGE_LINE_START } from '../../shared/scoring/judge-backend.js';
import { configProblems, UsageError } from '../usage-error.js';

/** What a command knows about the judging it is about to start. */
export interface JudgeKeyQuestion {
  readonly config: ConfigFile;
  readonly environment: JudgeEnvironment;
  /** Whether the run's judges make any judge call: one without a call needs no key, whatever the config names. */
  readonly callsJudges: boolean;
  /** How the command names what asked for an LLM judge: the config file, `--batch`, `--judges`, a run's stored config. */
  readonly describe: (request: LlmRequest) => string;
  /** Something else that asked, when the config and the environment did not (a resumed run an LLM judge judged). */
  readonly otherwiseAsked?: string | undefined;
}

/**
 * The judge key, checked before any work. Without the provider's key, a run
 * that asks for an LLM judge (shared/config/llm-request.ts) is a usage error
 * naming the variable it lacks; one that asks for nothing is judged by the
 * offline lexical judge, and this returns the one line that says so, for the
 * command to print on stderr. Undefined when an LLM judge will judge, or no
 * judge is called. Bedrock has no key to check: its AWS credential chain is
 * resolved at the first call, whose failure names it.
 */
export function lexicalStandIn(question: JudgeKeyQuestion): string | undefined {
  if (!question.callsJudges) return undefined;
  const choice = chooseProvider(question.config.judge, question.environment);
  if (choice.ok || !('lexical' in choice)) return undefined;
  const request = llmRequestOf(question.config, question.environment);
  const asked = request === undefined ? question.otherwiseAsked : question.describe(request);
  if (asked !== undefined) {
    throw new UsageError(
      `${choice.variable} is not set, and ${asked} asks for an LLM judge; set ${choice.variable} (the offline lexical judge runs only where nothing asks for an LLM judge)`,
    );
  }
  return `assay: no ${choice.variable}: judging with the offline lexical judge (non-LLM approximations; the judges that need an LLM are not run)`;
}

/** An environment request by its variable; a judge or setting by where the command found it (`source`: `in assay.yaml`, `in --judges`). */
export function requestText(request: LlmRequest, source: string): string {
  if (request.kind === 'environment') return request.variable;
  if (request.kind === 'judge') return `the judge ${request.judge} ${source}`;
  return `${request.setting} ${source}`;
}

/**
 * The judge key of a run being finished (assay resume, assay redrive): its
 * stored config asks for an LLM judge as a new run's would, and so does its
 * judge line when an LLM judge judged it, since lexical judgments would then
 * sit beside LLM ones in one report. Throws the config problems of a stored
 * config that no longer parses, as the commands' other checks do.
 */
export function finishingRunStandIn(runId: string, manifest: Manifest, environment: JudgeEnvironment): string | undefined {
  let config: ConfigFile;
  try {
    config = runConfigOf(manifest);
  } catch (error) {
    if (error instanceof StoredConfigError) throw configProblems(error.message);
    throw error;
  }
  return lexicalStandIn({
    config,
    environment,
    callsJudges: callsJudges(config),
    describe: (request) => requestText(request, `in the stored config of run ${runId}`),
    otherwiseAsked: manifest.judge.startsWith(`${LLM_JUDGE_LINE_START} `) ? `run ${runId}, judged by an LLM judge,` : undefined,
  });
}
