import type { JudgeClientSection } from '../judge-client-schema.js';
import { chooseProvider, type JudgeEnvironment } from '../judge-provider.js';
import type { BatchProvider } from './batch-provider.js';

/**
 * The batch API of the judge provider a run's config and environment choose,
 * loaded with its SDK on first use. Undefined, with the reason, when the
 * provider cannot judge (no key: such a run is judged by the lexical judge,
 * with no batch job to make).
 */
export async function batchProviderOf(judge: JudgeClientSection, environment: JudgeEnvironment): Promise<{ ok: true; provider: BatchProvider } | { ok: false; reason: string }> {
  const choice = chooseProvider(judge, environment);
  if (!choice.ok) return { ok: false, reason: 'error' in choice ? choice.error : choice.lexical };
  const { provider } = choice;
  if (provider.kind === 'bedrock') return { ok: false, reason: 'batch jobs run on OpenAI and Azure OpenAI, not yet on Amazon Bedrock' };
  const { openAiBatchProvider } = await import('./openai-batch-provider.js');
  return { ok: true, provider: openAiBatchProvider(provider.kind === 'openai' ? { kind: 'openai', baseUrl: provider.baseUrl, apiKey: provider.apiKey } : { kind: 'azure', azure: provider.azure, apiKey: provider.apiKey }) };
}
