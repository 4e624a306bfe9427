import { describe, expect, it } from 'vitest';
import { findJudge } from '../../../shared/judges/catalog/index.js';
import { extractJson, parseAnswer } from '../../../shared/judge-answers/answer-parsing.js';
import type { LlmJudge, Verdict } from '../../../shared/judges/judge-definition.js';
import { renderTemplate } from '../../../shared/judges/template.js';
import type { Result } from '../../../shared/schema/result.js';

function llmJudge(id: string): LlmJudge {
  const judge = findJudge(id);
  if (judge?.kind !== 'llm') throw new Error(`${id} is not an LLM judge`);
  return judge;
}

/** A raw answer text read as the judge client reads it: JSON out of the text, checked against the judge's schema, then the verdict. */
function readAnswer(id: string, text: string): Result<Verdict> {
  const judge = llmJudge(id);
  const json = extractJson(text);
  if (!json.ok) return json;
  const parsed = parseAnswer(json.value, judge.output);
  return parsed.ok ? { ok: true, value: judge.verdict(parsed.value) } : parsed;
}

const VALUES = {
  request: 'What is the capital of France?',
  response: 'Paris.',
  context: '[1] Paris is the capital of France.',
  expected_response: 'The capital of France is Paris.',
};

describe('judges named after Spring AI Alibaba evaluators', () => {
  it.each([
    // AnswerCorrectnessEvaluator: query, response, context
    ['answer_correctness', ['request', 'response', 'context'], { type: 'yes_no' }],
    // AnswerFaithfulnessEvaluator: facts (context) and the student answer, no question
    ['answer_faithfulness', ['context', 'response'], { type: 'score', min: 0, max: 1 }],
    // AnswerRelevancyEvaluator: question, ground-truth answer, student answer
    ['answer_relevancy', ['request', 'expected_response', 'response'], { type: 'score', min: 0, max: 1 }],
  ])('%s takes the inputs %j on the scale %j', (id, inputs, scale) => {
    expect(llmJudge(id)).toMatchObject({ inputs, scale, source: expect.stringMatching(/^Spring AI Alibaba /) });
  });

  it.each([
    [
      'answer_correctness',
      ['Query:\nWhat is the capital of France?', 'Response:\nParis.', 'Context:\n[1] Paris is the capital of France.'],
    ],
    ['answer_faithfulness', ['Facts:\n[1] Paris is the capital of France.', 'Answer:\nParis.']],
    [
      'answer_relevancy',
      ['Question:\nWhat is the capital of France?', 'Ground-truth answer:\nThe capital of France is Paris.', 'Student answer:\nParis.'],
    ],
  ])('%s puts each input under its label in the user message', (id, sections) => {
    // Act
    const message = renderTemplate(llmJudge(id).userTemplate, VALUES);

    // Assess
    expect(message.split('\n\n')).toEqual(sections);
  });

  it.each([
    // The evaluators' own answer form: score before feedback, as their prompts show it
    [
      'answer_relevancy',
      '{"score": 0.7, "feedback": "Accurate, but adds an unrelated claim."}',
      0.7,
      'Accurate, but adds an unrelated claim.',
      1,
    ],
    [
      'answer_relevancy',
      '{"score": 0.0, "feedback": "The answer is about another country."}',
      0,
      'The answer is about another country.',
      0,
    ],
    ['answer_faithfulness', '{"score": 1.0, "feedback": "Every statement is in the facts."}', 1, 'Every statement is in the facts.', 1],
    // a score written as text is read as a number
    ['answer_faithfulness', 'Here is my grade: {"score": "0.25", "feedback": "One invented detail."}', 0.25, 'One invented detail.', 1],
  ])('%s reads %s as score %s, feedback as rationale, passing %s', (id, text, score, feedback, passing) => {
    // Act
    const read = readAnswer(id, text);

    // Assess
    expect(read).toEqual({ ok: true, value: { rating: score, value: score, rationale: feedback, details: { passing } } });
  });

  it.each([
    ['YES', 'yes', 1],
    ['Yes.', 'yes', 1],
    ['NO', 'no', 0],
  ])('answer_correctness reads the rating %s as %s, score %s', (rating, expected, value) => {
    // Act
    const read = readAnswer('answer_correctness', JSON.stringify({ rationale: 'The response matches passage [1].', rating }));

    // Assess
    expect(read).toEqual({ ok: true, value: { rating: expected, value, rationale: 'The response matches passage [1].' } });
  });

  it.each([
    ['answer_relevancy', '{"score": 1.5, "feedback": "too high"}'],
    ['answer_faithfulness', '{"feedback": "no score given"}'],
    ['answer_correctness', '{"rationale": "unsure", "rating": "maybe"}'],
  ])('%s refuses the answer %s rather than guess a verdict', (id, text) => {
    expect(readAnswer(id, text)).toMatchObject({ ok: false });
  });
});
