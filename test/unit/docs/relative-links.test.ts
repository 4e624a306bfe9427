import { describe, expect, it } from 'vitest';
import { markdownFiles } from '../../support/markdown.js';
import { brokenLinks, brokenRepositoryLinks, githubAnchor, pageAnchors, type Files } from '../../support/relative-links.js';

/** Files held in memory, by path from the repository's root; a folder exists when a file is in it. */
function filesOf(pages: Record<string, string>): Files {
  const paths = Object.keys(pages);
  return {
    exists: (path) => paths.some((known) => known === path || known.startsWith(`${path}/`)),
    read: (path) => pages[path] ?? '',
  };
}

describe('githubAnchor', () => {
  it.each([
    ['Judges', 'judges'],
    ['How judges run', 'how-judges-run'],
    ['Judge cost: `judge.prices` and `run.max_judge_cost`', 'judge-cost-judgeprices-and-runmax_judge_cost'],
    ['Judge rate limits: `judge.rate_limit`', 'judge-rate-limits-judgerate_limit'],
    ['`chunk_relevance`', 'chunk_relevance'],
    ['Settings of single judges, model variants, ensembles and repeats', 'settings-of-single-judges-model-variants-ensembles-and-repeats'],
    ['Finishing a run: `assay resume` and `assay redrive`', 'finishing-a-run-assay-resume-and-assay-redrive'],
    ['Model variants `<id>@<model>`', 'model-variants-idmodel'],
    ['See [the client](judge-client.md) first', 'see-the-client-first'],
    ['Cost per 1,000 cases (USD)', 'cost-per-1000-cases-usd'],
    ['Two  spaces', 'two--spaces'],
    ['Über die Qualität', 'über-die-qualität'],
  ])('gives %j the anchor %j', (heading, anchor) => {
    expect(githubAnchor(heading)).toBe(anchor);
  });
});

describe('pageAnchors', () => {
  it('numbers repeated headings -1, -2, ... and skips a number another heading took', () => {
    // Prepare
    const page = ['# Metrics', '## Metrics', '### Metrics', '## Metrics-1', '## Metrics'].join('\n\n');

    // Act
    const anchors = pageAnchors(page);

    // Assess
    expect([...anchors]).toEqual(['metrics', 'metrics-1', 'metrics-2', 'metrics-1-1', 'metrics-3']);
  });

  it('reads setext headings and HTML anchors, and no heading inside a code block', () => {
    // Prepare
    const page = [
      'Setext title',
      '============',
      '',
      'A section',
      '---',
      '',
      '<a id="kept-anchor"></a>',
      '',
      '```sh',
      '# not a heading',
      '```',
      '',
      '    #also not one',
      '#nor this',
    ].join('\n');

    // Act
    const anchors = pageAnchors(page);

    // Assess
    expect([...anchors].sort()).toEqual(['a-section', 'kept-anchor', 'setext-title']);
  });
});

describe('brokenLinks', () => {
  const files = filesOf({
    'README.md': '# assay\n',
    'docs/judges.md': '# Judges\n\n## How judges run\n\n## Summary\n\n## Summary\n',
    'docs/judge-client.md': '# The judge client\n\n## Judge rate limits: `judge.rate_limit`\n',
    'examples/configs/dag-judge.yaml': 'dag_judges: []\n',
  });

  it('passes links to files, folders and headings that exist', () => {
    // Prepare
    const page = [
      'See [how judges run](#how-judges-run), [the second summary](judges.md#summary-1),',
      '[rate limits](judge-client.md#judge-rate-limits-judgerate_limit), [the client](./judge-client.md "title"),',
      '[the README](../README.md), [the README again](/README.md#assay), [a config](../examples/configs/dag-judge.yaml),',
      '[its folder](../examples/configs/), [a line of it](<../examples/configs/dag-judge.yaml#L1>),',
      '[a site](https://example.com/missing.md#nowhere) and [mail](mailto:someone@example.com).',
      '',
      '[ref]: judge-client.md#the-judge-client',
    ].join('\n');

    // Act
    const broken = brokenLinks('docs/judges.md', page, files);

    // Assess
    expect(broken).toEqual([]);
  });

  it('reports a link to a heading the page does not have', () => {
    // Prepare: the anchor the section had before it moved to judge-client.md
    const page = 'Requests are paced ([judge rate limits](judges.md#judge-rate-limits-judgerate_limit)).\n';

    // Act
    const broken = brokenLinks('docs/running.md', page, files);

    // Assess
    expect(broken).toEqual([
      {
        page: 'docs/running.md',
        target: 'judges.md#judge-rate-limits-judgerate_limit',
        reason: 'docs/judges.md has no heading with the anchor #judge-rate-limits-judgerate_limit',
      },
    ]);
  });

  it('reports a link to a file that does not exist, and a missing anchor of the page itself', () => {
    // Prepare
    const page = 'See [providers](judge-providers.md#azure) and [below](#nowhere).\n\n[old]: ../docs/batch.md\n';

    // Act
    const broken = brokenLinks('docs/judges.md', page, files);

    // Assess
    expect(broken).toEqual([
      { page: 'docs/judges.md', target: 'judge-providers.md#azure', reason: 'docs/judge-providers.md does not exist' },
      { page: 'docs/judges.md', target: '#nowhere', reason: 'docs/judges.md has no heading with the anchor #nowhere' },
      { page: 'docs/judges.md', target: '../docs/batch.md', reason: 'docs/batch.md does not exist' },
    ]);
  });

  it('reports an anchor into a file that is not a Markdown page, and a link out of the repository', () => {
    // Prepare
    const page = '[a key](../examples/configs/dag-judge.yaml#dag_judges) and [outside](../../elsewhere.md).\n';

    // Act
    const reasons = brokenLinks('docs/judges.md', page, files).map((link) => link.reason);

    // Assess
    expect(reasons).toEqual([
      'examples/configs/dag-judge.yaml is not a Markdown page with headings, so it has no #dag_judges',
      '../../elsewhere.md points outside the repository',
    ]);
  });

  it('ignores links shown as code, in a code span or a fenced block', () => {
    // Prepare
    const page = ['Write `[text](missing.md)` for a link.', '', '```markdown', '[text](missing.md#nowhere)', '```'].join('\n');

    // Act
    const broken = brokenLinks('docs/judges.md', page, files);

    // Assess
    expect(broken).toEqual([]);
  });
});

/** Every Markdown page of the repository: the README, docs/, the READMEs of shared/'s rooms, examples' and fixtures' notes. */
const PAGES = markdownFiles();

describe('relative links of every Markdown page', () => {
  it('covers the README and the docs pages', () => {
    expect(PAGES).toContain('README.md');
    expect(PAGES).toContain('docs/judges.md');
  });

  it.each(PAGES)('%s links only to files and headings that exist', (page) => {
    expect(brokenRepositoryLinks(page)).toEqual([]);
  });
});
