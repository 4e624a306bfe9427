import { gradesByDocument, type Qrels } from '../trec/qrels.js';
import { compareBytes } from '../trec/trec-order.js';

/** The (topic, document) pairs two qrels files both label, as two parallel grade lists. */
export interface LabelPairs {
  /** human[i] and judge[i] are the two grades of the i-th pair (topics in byte order, documents in the human file's order). */
  readonly human: readonly number[];
  readonly judge: readonly number[];
  /** Pairs only the human qrels label, and only the judge qrels. */
  readonly humanOnly: number;
  readonly judgeOnly: number;
  /**
   * Every grade either file uses, on any pair, ascending: the categories of
   * kappa, whose positions set the distances of weighted kappa. Negative
   * grades (trec_eval's "judged, ignore") are categories like any other.
   */
  readonly categories: readonly number[];
}

/** Pairs the labels of two qrels by (topic, document). */
export function pairLabels(human: Qrels, judge: Qrels): LabelPairs {
  const humanGrades: number[] = [];
  const judgeGrades: number[] = [];
  const categories = new Set<number>();
  let humanOnly = 0;
  let judgeOnly = 0;
  const topics = [...new Set([...human.keys(), ...judge.keys()])].sort(compareBytes);
  for (const topicId of topics) {
    const humanTopic = human.get(topicId);
    const judgeTopic = judge.get(topicId);
    const judgeByDocument = judgeTopic === undefined ? new Map<string, number>() : gradesByDocument(judgeTopic);
    for (const grade of judgeByDocument.values()) categories.add(grade);
    let matched = 0;
    for (const [documentId, grade] of humanTopic === undefined ? [] : gradesByDocument(humanTopic)) {
      categories.add(grade);
      const judgeGrade = judgeByDocument.get(documentId);
      if (judgeGrade === undefined) {
        humanOnly++;
        continue;
      }
      humanGrades.push(grade);
      judgeGrades.push(judgeGrade);
      matched++;
    }
    judgeOnly += judgeByDocument.size - matched;
  }
  return { human: humanGrades, judge: judgeGrades, humanOnly, judgeOnly, categories: [...categories].sort((left, right) => left - right) };
}
