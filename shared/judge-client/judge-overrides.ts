import { z } from 'zod';
import { judgeBaseUrlSchema } from './judge-base-url.js';

/**
 * Settings one judge may have apart from the run's `judge:` section: its own
 * model, server, temperature and answer length, and how many judgments to
 * draw per item. They are written under `judge_settings: {<id>: {...}}` or on
 * a custom or decision-tree judge's own entry; a variant `id@model` in the
 * judge list sets the model. The API key stays the environment's.
 */
export const judgeOverridesShape = {
  model: z.string().min(1).optional(),
  base_url: judgeBaseUrlSchema.optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().min(16).optional(),
  /** Judgments per item at the judge's temperature, reported as their mean and spread. */
  repeat: z.number().int().min(1).max(50).optional(),
};
export const judgeOverridesSchema = z.strictObject(judgeOverridesShape);
export type JudgeOverrides = z.infer<typeof judgeOverridesSchema>;

/** The client settings a judge sets for itself; the others are the run's. */
export interface ClientOverrides {
  readonly model?: string;
  readonly baseUrl?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
}

/** How each setting reads in an error message. */
export const OVERRIDE_FIXES: Readonly<Record<keyof JudgeOverrides, string>> = {
  model: 'give the model name, e.g. gpt-4o',
  base_url: 'give the OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 or http://localhost:11434/v1',
  temperature: 'give a number from 0 to 2; 0 keeps verdicts repeatable',
  max_tokens: 'give a whole number of tokens from 16 up, e.g. 1024',
  repeat: 'give how many judgments to draw per item, a whole number from 1 to 50, with a temperature above 0',
};

/** Overrides merged left to right, later ones winning key by key. */
export function mergeOverrides(...layers: readonly (JudgeOverrides | undefined)[]): JudgeOverrides {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) if (value !== undefined) merged[key] = value;
  }
  return merged as JudgeOverrides;
}

/** The client part of the overrides, or undefined when they change no client setting. */
export function clientOverridesOf(overrides: JudgeOverrides): ClientOverrides | undefined {
  const client: ClientOverrides = {
    ...(overrides.model === undefined ? {} : { model: overrides.model }),
    ...(overrides.base_url === undefined ? {} : { baseUrl: overrides.base_url }),
    ...(overrides.temperature === undefined ? {} : { temperature: overrides.temperature }),
    ...(overrides.max_tokens === undefined ? {} : { maxTokens: overrides.max_tokens }),
  };
  return Object.keys(client).length === 0 ? undefined : client;
}

/**
 * The name a judge's answer schema is sent under: OpenAI accepts only
 * letters, digits, `_` and `-`, at most 64 of them, so anything else (the `@`
 * of a variant, the `.` of a model name) becomes `_`.
 */
export function schemaNameOf(judgeId: string): string {
  return judgeId.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}
