import { z } from 'zod';
import { JudgeClient, type JudgeClientSettings } from '../../shared/judge-client/judge-client.js';
import { startOpenAiTestServer, type FaultPlan, type Oracle, type OpenAiTestServer } from './openai-test-server.js';

/** The answer shape of a yes/no judge, the request every client test sends, and a client against a fresh test server. */
export const verdictSchema = z.object({ rationale: z.string(), rating: z.enum(['yes', 'no']) });

export const judgeRequest = {
  messages: [
    { role: 'system' as const, content: 'Judge the passage.' },
    { role: 'user' as const, content: 'Request: a\nPassage: b' },
  ],
  schema: verdictSchema,
  schemaName: 'chunk_relevance',
};

export const answerWith =
  (json: unknown): Oracle =>
  () => ({ json });

export const TEST_CLIENT_SETTINGS: JudgeClientSettings = {
  baseUrl: undefined,
  apiKey: 'sk-test-secret',
  model: 'judge-model',
  temperature: 0,
  timeoutMs: 2_000,
  maxRetries: 4,
  maxTokens: 1024,
  maxRetryWaitMs: 30_000,
  callDeadlineMs: 120_000,
};

/** Starts a test server and a client pointed at it; the caller closes the server. */
export async function startJudgeClient(
  oracle: Oracle,
  faults: FaultPlan = {},
  settings: Partial<JudgeClientSettings> = {},
): Promise<{ client: JudgeClient; server: OpenAiTestServer }> {
  const server = await startOpenAiTestServer({ oracle, faults });
  const client = new JudgeClient({ ...TEST_CLIENT_SETTINGS, baseUrl: server.baseUrl, ...settings });
  return { client, server };
}
