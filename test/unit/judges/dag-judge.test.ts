import { describe, expect, it } from 'vitest';
import { dagJudgeSchema, type DagJudgeDefinition } from '../../../shared/judges/dag/dag-config.js';
import { buildDagJudge } from '../../../shared/judges/dag/dag-judge.js';
import { walkDag, type AskNode } from '../../../shared/judges/dag/walk-dag.js';

function tree(nodes: Record<string, unknown>, root = 'start'): DagJudgeDefinition {
  return dagJudgeSchema.parse({ id: 'tree', assessment: 'ANSWER', root, nodes });
}

const answered =
  (answers: Record<string, string>): AskNode =>
  async (judge) => {
    const node = judge.version.split('/')[1] ?? '';
    const answer = answers[node];
    if (answer === undefined) throw new Error(`node ${node} was not expected to be asked`);
    const field = judge.systemTemplate.includes('"output"') ? 'output' : 'verdict';
    return { ok: true, value: judge.verdict({ rationale: `because ${node}`, [field]: answer }) };
  };

describe('decision-tree judges', () => {
  it.each([
    ['a root that is no node', tree({ end: { verdict: 1 } }), 'root', 'no node is named "start"'],
    ['a verdict as the root', tree({ start: { verdict: 1 } }), 'root', 'the root is a verdict'],
    [
      'a link to a missing node',
      tree({ start: { binary: 'ok?', yes: 'end', no: 'gone' }, end: { verdict: 1 } }),
      'nodes.start',
      'leads to "gone"',
    ],
    [
      'a loop',
      tree({ start: { binary: 'ok?', yes: 'again', no: 'end' }, again: { binary: 'sure?', yes: 'start', no: 'end' }, end: { verdict: 1 } }),
      'nodes',
      'start -> again -> start',
    ],
    [
      'a node no walk reaches',
      tree({ start: { binary: 'ok?', yes: 'end', no: 'end' }, end: { verdict: 1 }, lost: { verdict: 0 } }),
      'nodes',
      'lost can never be reached',
    ],
    [
      'no score above 0',
      tree({ start: { binary: 'ok?', yes: 'end', no: 'end' }, end: { verdict: 0 } }),
      'max_score',
      'no verdict scores above 0',
    ],
  ])('rejects %s, naming the field', (_, definition, field, problem) => {
    const build = buildDagJudge(definition);

    expect(build.ok).toBe(false);
    expect(build.ok ? undefined : build.error.field).toBe(field);
    expect(build.ok ? '' : build.error.problem).toContain(problem);
  });

  it('walks from the root to a verdict, one question per node visited, and keeps the path as the rationale', async () => {
    // Prepare: extract, then a yes/no, then a three-way question
    const build = buildDagJudge(
      tree({
        start: { task: 'List the headings.', label: 'Headings', inputs: ['response'], next: 'complete' },
        complete: { binary: 'All three there?', yes: 'order', no: 'zero' },
        order: { non_binary: 'In order?', options: { 'In order': 'ten', 'Two out of order': 'four' } },
        zero: { verdict: 0 },
        ten: { verdict: 10 },
        four: { verdict: 4 },
      }),
    );
    if (!build.ok) throw new Error(build.error.problem);
    const asked: string[] = [];
    const ask: AskNode = async (judge, inputs) => {
      asked.push(judge.version);
      return answered({ start: 'intro\nconclusion\nbody', complete: 'yes', order: 'Two out of order' })(judge, inputs);
    };

    // Act
    const outcome = await walkDag(build.value, { response: '# intro ...' }, ask);

    // Assess: 4 of 10 is a rating of 0.4; the later nodes see the extracted headings
    expect(asked).toEqual(['1/start', '1/complete', '1/order']);
    expect(outcome).toEqual({
      ok: true,
      value: {
        rating: 0.4,
        value: 0.4,
        details: { score: 4 },
        rationale:
          'start: Headings = "intro\\nconclusion\\nbody" -> complete: yes (because complete) -> order: "Two out of order" (because order) -> four: score 4 of 10',
      },
    });
  });

  it('shows each node the text the task nodes before it extracted, with braces kept literal', async () => {
    const build = buildDagJudge(
      tree({
        start: { task: 'Quote it.', label: 'Quote', inputs: ['response'], next: 'check' },
        check: { binary: 'Fine?', yes: 'one', no: 'zero' },
        one: { verdict: 1 },
        zero: { verdict: 0 },
      }),
    );
    if (!build.ok) throw new Error(build.error.problem);
    const templates: string[] = [];

    await walkDag(build.value, { response: 'r' }, async (judge, inputs) => {
      templates.push(judge.userTemplate);
      return answered({ start: 'a {literal} quote', check: 'no' })(judge, inputs);
    });

    expect(templates[1]).toBe('Fine?\n\nQuote:\na {{literal}} quote');
  });
});
