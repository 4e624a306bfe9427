import type { Command } from 'commander';

/**
 * One `assay` subcommand as the program lists it before loading it: the name,
 * the usage term and the description shown by `assay --help`, and a loader
 * that imports the command's module (and with it its dependencies) only when
 * that command runs or its own help is asked for.
 */
export interface CommandEntry {
  readonly name: string;
  /** As `assay --help` lists it: name, `[options]` and arguments. */
  readonly term: string;
  readonly description: string;
  readonly load: () => Promise<Command>;
}

/**
 * Every subcommand, in the order `assay --help` lists them. A test checks that
 * each term and description equal those of the loaded command.
 */
export const COMMAND_TABLE: readonly CommandEntry[] = [
  {
    name: 'run',
    term: 'run [options] [dataset]',
    description: 'Evaluate a dataset or TREC runs: ingest, judge every case, reduce, and write the report',
    load: async () => (await import('./commands/run.js')).runCommand(),
  },
  {
    name: 'redrive',
    term: 'redrive [options] <run>',
    description: "Send a run's failed cases and cases lacking a judgment through the judges again and rewrite its report",
    load: async () => (await import('./commands/redrive.js')).redriveCommand(),
  },
  {
    name: 'resume',
    term: 'resume [options] <run>',
    description: 'Finish an interrupted run: judge every case that has no result or failure yet, then write the report',
    load: async () => (await import('./commands/resume.js')).resumeCommand(),
  },
  {
    name: 'baseline',
    term: 'baseline',
    description: "Manage a suite's baseline run",
    load: async () => (await import('./commands/baseline.js')).baselineCommand(),
  },
  {
    name: 'submit',
    term: 'submit [options] [dataset]',
    description: 'Upload a dataset or TREC runs to a deployed stack (the upload starts the run) and print the run id',
    load: async () => (await import('./commands/submit.js')).submitCommand(),
  },
  {
    name: 'status',
    term: 'status [options] <run>',
    description: "Show how far a run has come, in a deployed stack's bucket or a local store",
    load: async () => (await import('./commands/status.js')).statusCommand(),
  },
  {
    name: 'report',
    term: 'report [options] <run>',
    description: "Download a run's report files (report.json, report.md, report.html, cases.jsonl) from a deployed stack",
    load: async () => (await import('./commands/report.js')).reportCommand(),
  },
  {
    name: 'history',
    term: 'history',
    description: "Manage a suite's history (reports/<suite>/history.json and history.html)",
    load: async () => (await import('./commands/history.js')).historyCommand(),
  },
  {
    name: 'view',
    term: 'view [options]',
    description: "Browse a store's suites, their history, runs and comparisons in a local web app",
    load: async () => (await import('./commands/view.js')).viewCommand(),
  },
  {
    name: 'ir-metrics',
    term: 'ir-metrics [options] <qrels> <runs...>',
    description: 'Evaluate TREC runs against qrels exactly as trec_eval does',
    load: async () => (await import('./commands/ir-metrics.js')).irMetricsCommand(),
  },
  {
    name: 'validate',
    term: 'validate [options] <datasets...>',
    description: 'Check dataset files: count rows, cases, engines and labelled cases, and list every bad row',
    load: async () => (await import('./commands/validate.js')).validateCommand(),
  },
  {
    name: 'judges',
    term: 'judges [options]',
    description: 'List the built-in judges: id, scope, assessment, inputs, scale and description',
    load: async () => (await import('./commands/judges.js')).judgesCommand(),
  },
  {
    name: 'compare',
    term: 'compare [options] <a> <b>',
    description: 'Compare two runs case by case (B against A) with paired significance tests',
    load: async () => (await import('./commands/compare.js')).compareCommand(),
  },
  {
    name: 'engines',
    term: 'engines [options]',
    description: 'List the engines of a config file (matrix expanded); with --query, ask each one and print its hits',
    load: async () => (await import('./commands/engines.js')).enginesCommand(),
  },
  {
    name: 'agreement',
    term: 'agreement [options]',
    description: "Measure a judge's relevance labels against human qrels: kappa per label, tau between system rankings",
    load: async () => (await import('./commands/agreement.js')).agreementCommand(),
  },
];
