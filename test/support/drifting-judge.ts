import { createHash } from 'node:crypto';
import { judgeName, lastUserMessage } from './judge-oracle.js';
import type { Oracle } from './openai-test-server.js';

/**
 * A judge model that answers deterministically from a seed, night after
 * night, as a served model does: the same prompt gets the same verdict,
 * but for a small share of its verdicts that come out the other way on
 * any given night (the serving's own noise), and on a night it is changed
 * under the same name, a share of its verdicts turned down and another
 * `system_fingerprint`. For the relevance judges of the catalog:
 * `chunk_relevance` says yes to a passage that reads "relevant" (and, from
 * the seed, to a few that do not, and no to a few that do: no judge is
 * perfect), `graded_relevance` grades it 0 to 3 the same way.
 */
export interface DriftingJudgeNight {
  readonly seed: number;
  /** The night, 0 and up: which of the verdicts the night's noise turns. */
  readonly night: number;
  /** The share of verdicts the serving turns the other way on any night, 0 to 1. */
  readonly noise: number;
  /** The share of the judge's leaning it gets wrong every night, 0 to 1: its own bias, the same each night. */
  readonly mistakes: number;
  /** Set on the night the judge is changed: the share of its yes verdicts (and grades above 0) turned down, and its new fingerprint. */
  readonly change?: { readonly share: number; readonly fingerprint: string };
  /** The fingerprint of the unchanged judge. */
  readonly fingerprint: string;
  /** The model the answers name (default: the one asked for). */
  readonly reportedModel?: string;
}

export function driftingJudge(night: DriftingJudgeNight): Oracle {
  return (request) => {
    const judge = judgeName(request);
    const prompt = lastUserMessage(request);
    const relevant = /\brelevant\b/.test(passageOf(prompt)) && !/\birrelevant\b/.test(passageOf(prompt));
    // A judge's own mistakes: the same items every night.
    let grade = (relevant ? 2 : 0) + (draw(night.seed, `grade ${judge}`, prompt) < 0.5 ? 1 : 0);
    if (draw(night.seed, `mistake ${judge}`, prompt) < night.mistakes) grade = 3 - grade;
    // The night's noise: other items each night.
    if (draw(night.seed, `noise ${judge} ${night.night}`, prompt) < night.noise) grade = 3 - grade;
    const changed = night.change !== undefined && draw(night.seed, `change ${night.night}`, prompt) < night.change.share;
    if (changed) grade = Math.max(0, grade - 2);
    const fingerprint = night.change?.fingerprint ?? night.fingerprint;
    const identity = {
      systemFingerprint: fingerprint,
      ...(night.reportedModel === undefined ? {} : { reportedModel: night.reportedModel }),
    };
    if (judge === 'graded_relevance') return { json: { rationale: `grade ${grade}`, rating: grade }, ...identity };
    const rating = grade >= 2 ? 'yes' : 'no';
    return { json: { rationale: `judged ${rating}`, rating }, ...identity };
  };
}

/** A number in [0, 1) from the seed, a purpose and the prompt: the same three give the same number. */
function draw(seed: number, purpose: string, prompt: string): number {
  const digest = createHash('sha256').update(`${seed}\u0000${purpose}\u0000${prompt}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** The passage a chunk judge is shown: the prompt's text after its last "passage" heading, or the whole prompt. */
function passageOf(prompt: string): string {
  const at = prompt.toLowerCase().lastIndexOf('passage');
  return at < 0 ? prompt : prompt.slice(at);
}
