import { isDeepStrictEqual } from 'node:util';
import type { Tags } from '../schema/eval-case.js';
import { hasOwnKey } from './own-keys.js';

/**
 * Splits the tags of a case's rows between the case and its engines. A tag
 * every engine row gives with the same value belongs to the case; a tag that
 * differs stays with the engine that gave it. Tags of label-only rows describe
 * the case itself. No tag is dropped: each row's tags are its engine's tags
 * plus the case's tags it does not override.
 */
export function splitTags(engineTags: readonly Tags[], labelTags: Tags): { caseTags: Tags; engineTags: Tags[] } {
  const [first, ...others] = engineTags;
  const shared: Tags = {};
  for (const [key, value] of Object.entries(first ?? {})) {
    if (others.every((tags) => hasOwnKey(tags, key) && isDeepStrictEqual(tags[key], value))) shared[key] = value;
  }
  const caseTags: Tags = { ...shared, ...labelTags };
  return {
    caseTags,
    engineTags: engineTags.map((tags) =>
      Object.fromEntries(
        Object.entries(tags).filter(([key, value]) => !(hasOwnKey(caseTags, key) && isDeepStrictEqual(caseTags[key], value))),
      ),
    ),
  };
}
