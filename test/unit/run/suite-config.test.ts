import { describe, expect, it } from 'vitest';
import { suiteConfig } from '../../../shared/run/suite-config.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';

/** Nine levels of nine aliases: 9^9 strings if expanded. */
function aliasBomb(): string {
  const levels = ['l0: &l0 [x, x, x, x, x, x, x, x, x]'];
  for (let level = 1; level < 9; level++)
    levels.push(`l${level}: &l${level} [${Array.from({ length: 9 }, () => `*l${level - 1}`).join(', ')}]`);
  return `${levels.join('\n')}\n`;
}

describe('suiteConfig', () => {
  it.each<[string, string, RegExp]>([
    [
      'an alias bomb',
      aliasBomb(),
      /^config\/nightly\.yaml: not usable YAML: its aliases \(\*name\) expand to more than 100 copies of one anchor/,
    ],
    [
      'a __proto__ key in thresholds',
      'thresholds:\n  __proto__: {max: 1}\n',
      /^config\/nightly\.yaml: field "thresholds\.__proto__": the key "__proto__" cannot be used/,
    ],
  ])('refuses a stored config with %s, naming its key on one line', async (_described, text, message) => {
    // Prepare
    const store = new MemoryStore();
    await store.put('config/nightly.yaml', text);

    // Act
    const read = suiteConfig(store, 'nightly');

    // Assess
    await expect(read).rejects.toThrow(message);
    await expect(read).rejects.toThrow(/^[^\n]*$/);
  });
});
