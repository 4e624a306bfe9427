import { describe, expect, it } from 'vitest';
import { JUDGE_CATALOG } from '../../../shared/judges/catalog/index.js';
import { describeScale } from '../../../shared/judges/scale.js';
import { runCli } from '../../support/run-cli.js';
import { createTempFolder } from '../../support/temp-folder.js';

describe('assay judges', () => {
  it('--json lists every built-in judge with its id, scope, kind, assessment, inputs, scale and description', async () => {
    // Act
    const result = await runCli(['judges', '--json']);

    // Assess
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const listed = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(listed).toEqual(
      JUDGE_CATALOG.map((judge) => ({
        id: judge.id,
        scope: judge.scope,
        kind: judge.kind,
        assessment: judge.assessment,
        inputs: [...judge.inputs],
        scale: describeScale(judge.scale),
        description: judge.description,
      })),
    );
  });

  it.each([
    ['graded_relevance', 'llm', '0-3 grade (0 none, 1 weak, 2 medium, 3 strong)'],
    ['document_recall', 'deterministic', 'score 0-1'],
    ['groundedness', 'llm', 'yes/no'],
  ])('--json shows %s as %s on the scale "%s"', async (id, kind, scale) => {
    const listed = JSON.parse((await runCli(['judges', '--json'])).stdout) as { id: string; kind: string; scale: string }[];
    expect(listed.find((judge) => judge.id === id)).toMatchObject({ kind, scale });
  });

  it('without --json prints a table: a header, then one row and one description line per judge', async () => {
    // Act
    const result = await runCli(['judges']);

    // Assess
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+KIND\s+SCOPE\s+ASSESSMENT\s+SCALE\s+INPUTS$/);
    expect(lines).toHaveLength(1 + 2 * JUDGE_CATALOG.length);
    JUDGE_CATALOG.forEach((judge, index) => {
      expect(lines[1 + 2 * index]).toMatch(new RegExp(`^${judge.id}\\s+${judge.kind}\\s+${judge.scope}\\s+${judge.assessment}\\s`));
      expect(lines[2 + 2 * index]).toBe(`    ${judge.description}`);
    });
  });

  it('--config adds the custom judges of a config file after the built-in ones', async () => {
    // Prepare
    const folder = await createTempFolder();
    const config = await folder.write(
      'assay.yaml',
      'custom_judges:\n  - id: tone_check\n    assessment: ANSWER\n    template: "Is the answer to {request} polite? {response}"\n    scale: yes_no\n',
    );

    // Act
    const listed = JSON.parse((await runCli(['judges', '--json', '--config', config])).stdout) as { id: string; inputs: string[] }[];
    await folder.remove();

    // Assess
    expect(listed).toHaveLength(JUDGE_CATALOG.length + 1);
    expect(listed.at(-1)).toMatchObject({ id: 'tone_check', inputs: ['request', 'response'] });
  });

  it('--config shows each judge own settings, its model variants and its ensembles', async () => {
    // Prepare
    const folder = await createTempFolder();
    const config = await folder.write(
      'assay.yaml',
      [
        'judges: [safety, graded_relevance@gpt-4o, panel]',
        'judge_settings: {safety: {temperature: 0.7, repeat: 3}}',
        'ensembles: [{id: panel, members: [graded_relevance, graded_relevance@gpt-4o], combine: median}]',
        '',
      ].join('\n'),
    );

    // Act
    const listed = JSON.parse((await runCli(['judges', '--json', '--config', config])).stdout) as {
      id: string;
      settings?: unknown;
      members?: unknown;
    }[];
    const table = (await runCli(['judges', '--config', config])).stdout;
    await folder.remove();

    // Assess
    expect(listed.find((judge) => judge.id === 'safety')).toMatchObject({ settings: { temperature: 0.7, repeat: 3 } });
    expect(listed.find((judge) => judge.id === 'graded_relevance')?.settings).toBeUndefined();
    expect(listed.slice(JUDGE_CATALOG.length)).toMatchObject([
      { id: 'panel', kind: 'ensemble', members: ['graded_relevance', 'graded_relevance@gpt-4o'], combine: 'median' },
      { id: 'graded_relevance@gpt-4o', kind: 'llm', settings: { model: 'gpt-4o' } },
    ]);
    expect(table).toMatch(/\n {4}settings: temperature 0\.7, repeat 3\n/);
  });

  it('--config names the problem in a bad config file', async () => {
    const folder = await createTempFolder();
    const config = await folder.write('assay.yaml', 'judge:\n  temprature: 0\n');
    const result = await runCli(['judges', '--config', config]);
    await folder.remove();
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/temprature/);
  });
});
