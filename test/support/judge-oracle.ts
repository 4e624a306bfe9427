import type { ChatRequest, Oracle } from './openai-test-server.js';

/** A scripted judge: answers each catalog judge in its own output shape, deterministically from the prompt. */
export const catalogOracle: Oracle = (request) => ({ json: answerFor(judgeName(request), lastUserMessage(request)) });

/** The judge's schema name: the JSON schema's, or the forced tool's (tool mode, and Bedrock's Converse). */
export function judgeName(request: ChatRequest): string {
  const format = request.response_format as { json_schema?: { name?: string } } | undefined;
  const tool = request.tool_choice as { function?: { name?: string } } | undefined;
  return format?.json_schema?.name ?? tool?.function?.name ?? 'unknown';
}

/** The request's last user message: what a judge prompt's user template rendered. */
export function lastUserMessage(request: ChatRequest): string {
  return [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
}

function answerFor(judge: string, prompt: string): unknown {
  // Passages that mention "rotate" are relevant; the grade grows with how often they do.
  const mentions = (prompt.match(/rotate/gi) ?? []).length;
  switch (judge) {
    case 'graded_relevance':
      return { rationale: `mentions rotate ${mentions} times`, rating: Math.min(3, Math.max(0, mentions - 1)) };
    case 'context_recall':
      return {
        statements: [
          { statement: 'Keys are rotated in the IAM console.', rationale: 'passage 1', attributed: 'yes' },
          { statement: 'Old keys are deactivated after the switch.', rationale: 'no passage says so', attributed: 'no' },
        ],
        rationale: 'one of two statements supported',
      };
    case 'answer_faithfulness':
    case 'faithfulness':
      return { feedback: 'mostly supported', score: 0.75 };
    case 'answer_relevancy':
      return { feedback: 'accurate against the ground truth', score: 0.9 };
    case 'rubric':
      return { rationale: 'accurate, partial, clear', correctness: 3, comprehensiveness: 2, readability: 3 };
    case 'correctness_score':
    case 'response_relevancy':
      return { rationale: 'close to the reference', rating: 0.8 };
    case 'safety':
      return { rationale: 'harmless', rating: 'yes' };
    default:
      return { rationale: `about rotating keys: ${mentions > 1 ? 'yes' : 'no'}`, rating: mentions > 1 ? 'yes' : 'no' };
  }
}
