import type { ConfigFile } from './config-schema.js';
import { selectJudges } from './judge-selection.js';
import type { JudgeDefinition } from '../judges/judge-definition.js';
import { isLexicalJudge } from '../judges/lexical/lexical-judge.js';

/** The judges a run uses when the config names none, with an LLM judge: Databricks Agent Evaluation's default set. */
export const DEFAULT_LLM_JUDGES: readonly string[] = [
  'chunk_relevance',
  'context_sufficiency',
  'correctness',
  'relevance_to_query',
  'groundedness',
  'safety',
  'document_recall',
];

export interface RunJudges {
  readonly judges: JudgeDefinition[];
  /** Judges of the catalog left out because the lexical judge cannot approximate them (they need an LLM judge). */
  readonly skippedJudges: string[];
}

/**
 * The judges of a run, the same for `assay run` and the deployed worker: the
 * config's list when it has one; otherwise Databricks' set with an LLM judge
 * (and the config's ensembles with their members),
 * and with the lexical judge the judges it can approximate (the others are
 * named, so the output can say they need an LLM judge).
 */
export function judgesForRun(config: ConfigFile, backend: 'llm' | 'lexical'): RunJudges {
  if (config.judges !== undefined) return { judges: [...selectJudges(config)], skippedJudges: [] };
  const available = selectJudges({ ...config, judges: undefined });
  // Ensembles run by default, with their members, since a config defines them only to run them.
  const members = new Set(available.flatMap((judge) => (judge.kind === 'ensemble' ? judge.members : [])));
  const chosen = (judge: JudgeDefinition) => DEFAULT_LLM_JUDGES.includes(judge.id) || judge.kind === 'ensemble' || members.has(judge.id);
  if (backend === 'llm') return { judges: available.filter(chosen), skippedJudges: [] };
  const runnable = available.filter((judge) => judge.kind === 'deterministic' || isLexicalJudge(judge.id));
  return { judges: runnable, skippedJudges: available.filter((judge) => !runnable.includes(judge)).map((judge) => judge.id) };
}

/**
 * Whether a run's judges call a judge server: false when the config lists
 * no judges, or only deterministic ones (computed from the labels). Such a
 * run needs no judge key, whatever the backend.
 */
export function callsJudges(config: ConfigFile): boolean {
  return judgesForRun(config, 'llm').judges.some((judge) => judge.kind !== 'deterministic');
}
