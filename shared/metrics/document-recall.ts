/**
 * Document recall, as Databricks Agent Evaluation defines
 * `retrieval/ground_truth/document_recall`: the share of the expected
 * documents that appear anywhere in the retrieved list, matched by doc_uri.
 *
 *   document_recall = |expected ∩ retrieved| / |expected|
 *
 * Repeated doc_uris count once on both sides. With no expected documents the
 * measure is undefined and the function returns undefined, so that an average
 * over cases skips the unlabelled ones instead of counting them as 0 or NaN.
 */
export function documentRecall(retrievedDocumentUris: Iterable<string>, expectedDocumentUris: Iterable<string>): number | undefined {
  const expected = new Set(expectedDocumentUris);
  if (expected.size === 0) return undefined;
  const found = new Set<string>();
  for (const uri of retrievedDocumentUris) {
    if (expected.has(uri)) found.add(uri);
  }
  return found.size / expected.size;
}
