import { readdir, readFile, readlink } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_LAUNCH_TIMEOUT_MS,
  launchBrowser,
  launchPackagedChromium,
  preparePackagedChromium,
  SYSTEM_CHROMIUM_VARIABLE,
} from '../support/browser.js';
import { createTempFolder, type TempFolder } from '../support/temp-folder.js';

/*
 * The browser the end-to-end tests use comes from npm: these tests decompress
 * it into a fresh folder, as on a new machine, and check that it runs on what
 * it brings rather than on what the machine has installed.
 */
let root: TempFolder;
let executable: string;
let browser: Browser;

beforeAll(async () => {
  // Prepare: two first launches at once, as two test workers on a new machine would make.
  root = await createTempFolder();
  const [first, second] = await Promise.all([preparePackagedChromium(root.path), preparePackagedChromium(root.path)]);
  expect(second.executable).toBe(first.executable);
  executable = first.executable;
  browser = await launchPackagedChromium(root.path);
}, 2 * BROWSER_LAUNCH_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await root?.remove();
});

/** The shared libraries mapped into the running packaged browser, by file name. */
async function librariesOfBrowser(): Promise<Map<string, string>> {
  const libraries = new Map<string, string>();
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const exe = await readlink(`/proc/${pid}/exe`).catch(() => '');
    if (exe !== executable) continue;
    const maps = await readFile(`/proc/${pid}/maps`, 'utf8');
    for (const [line, path] of maps.matchAll(/\s(\/\S+\.so[.\d]*)$/gm)) {
      if (path === undefined) throw new Error(`Expected a library path in the mapping ${line}`);
      libraries.set(basename(path), path);
    }
  }
  return libraries;
}

describe('the packaged Chromium', () => {
  it('leaves one complete copy after concurrent first launches, and no staging folder', async () => {
    const entries = await readdir(root.path);

    expect(entries).toEqual([expect.stringMatching(/^assay-chromium-\d+\.\d+\.\d+-\d+$/)]);
    expect(executable.startsWith(`${root.path}/${entries[0]}/`)).toBe(true);
  });

  it('loads the NSS libraries it brings, not the machine’s', async () => {
    const libraries = await librariesOfBrowser();

    expect(libraries.get('libnss3.so')).toBe(executable.replace(/chromium$/, 'al2023/lib/libnss3.so'));
    expect(libraries.get('libnspr4.so')).toBe(executable.replace(/chromium$/, 'al2023/lib/libnspr4.so'));
  });

  it('draws text in the font it brings, whatever the page asks for', async () => {
    // Prepare
    const page = await browser.newPage();

    // Act: the width of one line of text in each generic family and in the packaged font
    const widths = (await page.evaluate(`(() => {
      const context = document.createElement('canvas').getContext('2d');
      return ['"Open Sans"', 'sans-serif', 'serif', 'monospace'].map((family) => {
        context.font = '40px ' + family;
        return context.measureText('Judged 1,000 cases: mean ndcg@10 0.4242').width;
      });
    })()`)) as number[];

    // Assess: with the machine's fonts the serif and monospace lines would differ from the sans-serif one
    expect(new Set(widths).size).toBe(1);
    expect(widths[0]).toBeGreaterThan(0);
    await page.close();
  });

  it(`gives way to the browser ${SYSTEM_CHROMIUM_VARIABLE} names`, async () => {
    // Prepare: a path where no browser is, so the launch fails naming it. Playwright
    // leaves the profile and artifacts folders of a failed launch in the temp dir:
    // the launch gets the test's folder as its temp dir, so they go with it.
    const missing = `${root.path}/no-such-chromium`;
    const saved = { browser: process.env[SYSTEM_CHROMIUM_VARIABLE], temp: process.env.TMPDIR };
    process.env[SYSTEM_CHROMIUM_VARIABLE] = missing;
    process.env.TMPDIR = root.path;

    try {
      await expect(launchBrowser()).rejects.toThrow(missing);
    } finally {
      restoreVariable(SYSTEM_CHROMIUM_VARIABLE, saved.browser);
      restoreVariable('TMPDIR', saved.temp);
    }
  });
});

function restoreVariable(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
