/** The dataset model's public surface: load any accepted dataset or TREC collection as EvalCases. */
export { loadDataset, type LoadDatasetOptions } from './load-dataset.js';
export type { CaseIdRule } from '../rows/case-grouper.js';
export { DEFAULT_ROW_LIMITS, type RowLimits } from '../readers/row-limits.js';
export { loadTrecCollection, type TrecCollectionFiles } from '../trec-collection/trec-collection.js';
export {
  collectDataset,
  emptyCounts,
  isLabelled,
  type CollectedDataset,
  type DatasetCounts,
  type DatasetEvent,
} from '../rows/dataset-events.js';
export { DatasetError } from '../rows/dataset-error.js';
export { DATASET_FORMATS, datasetFormatFromName, isDatasetFormat, type DatasetFormat } from './dataset-format.js';
export { sniffInputKind, type InputKind } from './input-kind.js';
export { contentDocUri, requestIdFor } from '../rows/content-ids.js';
export { FIELD_CONVENTIONS, conventionForName, type FieldConvention, type RowField } from '../rows/conventions.js';
export { rankLikeTrecEval, type RunEntry } from '../trec-collection/trec-ranking.js';
