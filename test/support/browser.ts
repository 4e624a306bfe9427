import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import Sparticuz from '@sparticuz/chromium';
import { packageFolderOf, packageVersionOf } from './package-folder.js';
import { chromium, type Browser } from 'playwright-core';

/**
 * Set to a browser's path (e.g. `/usr/bin/chromium`) to test with it; unset,
 * the tests use the Chromium that `@sparticuz/chromium` packages, so they need
 * nothing outside npm.
 */
export const SYSTEM_CHROMIUM_VARIABLE = 'ASSAY_TEST_CHROMIUM';

/** The first launch on a machine decompresses about 200 MB (seconds on a busy machine): hooks that launch allow this long. */
export const BROWSER_LAUNCH_TIMEOUT_MS = 120_000;

/** The browser must not call home on its own (updates, sync, metrics): tests use no network beyond loopback. */
const QUIET_FLAGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const SYSTEM_BROWSER_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', ...QUIET_FLAGS];

/** A decompressed packaged Chromium, ready to launch. */
export interface PackagedChromium {
  readonly executable: string;
  /** The variables that make it use its own shared libraries and fonts instead of the machine's. */
  readonly environment: Record<string, string>;
}

/** A headless browser: the one SYSTEM_CHROMIUM_VARIABLE names, else the packaged one. Playwright gives each launch a fresh temporary profile. */
export async function launchBrowser(): Promise<Browser> {
  const system = process.env[SYSTEM_CHROMIUM_VARIABLE];
  if (system !== undefined && system !== '') return chromium.launch({ executablePath: system, args: SYSTEM_BROWSER_FLAGS });
  return launchPackagedChromium();
}

/** The packaged Chromium, decompressed under `root` on first use (see preparePackagedChromium). */
export async function launchPackagedChromium(root: string = tmpdir()): Promise<Browser> {
  const packaged = await preparePackagedChromium(root);
  return chromium.launch({
    executablePath: packaged.executable,
    args: [...Sparticuz.args, ...QUIET_FLAGS],
    env: { ...process.env, ...packaged.environment },
  });
}

const require = createRequire(import.meta.url);
const packageFolder = packageFolderOf('@sparticuz/chromium');

/**
 * Decompresses the packaged Chromium once per version and user into
 * `<root>/assay-chromium-<version>-<uid>` (root: the system temp dir, so
 * TMPDIR moves it) and returns it. The package decompresses into its process's
 * temp dir and takes any file already there for complete, so a child process
 * does it in a private staging folder, which is then renamed into place: a
 * rename is atomic, so concurrent first launches (test workers, or two
 * checkouts on one machine) never see half a browser, and the loser of the
 * race drops its copy.
 */
export async function preparePackagedChromium(root: string = tmpdir()): Promise<PackagedChromium> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `The packaged Chromium runs on Linux x64 only, not ${process.platform} ${process.arch}: set ${SYSTEM_CHROMIUM_VARIABLE} to a Chromium or Chrome executable`,
    );
  }
  const version = packageVersionOf('@sparticuz/chromium');
  const home = join(root, `assay-chromium-${version}-${process.getuid?.() ?? 0}`);
  if (!existsSync(home)) await decompressInto(home, root);
  return {
    executable: join(home, 'chromium'),
    environment: {
      // NSS and expat, which a minimal Linux lacks; the package ships them for Amazon Linux, and they load on Debian too.
      LD_LIBRARY_PATH: [join(home, 'al2023', 'lib'), process.env.LD_LIBRARY_PATH]
        .filter((path) => path !== undefined && path !== '')
        .join(':'),
      // Only the packaged fonts, so pages render alike on every machine, with or without fonts installed.
      FONTCONFIG_FILE: join(home, 'fonts.conf'),
    },
  };
}

/**
 * Runs in a child process whose TMPDIR is the staging folder: the package
 * decompresses the browser, its fonts and its graphics library there. It
 * unpacks the shared libraries (al2023.tar.br) only on Amazon Linux, where
 * they are missing, so decompressInto unpacks them itself: Debian lacks some too.
 */
const DECOMPRESS_SCRIPT = `
const [, packageUrl, binFolder] = process.argv;
const { default: Chromium } = await import(packageUrl);
await Chromium.executablePath(binFolder);
`;

async function decompressInto(home: string, root: string): Promise<void> {
  const staging = await mkdtemp(`${home}-staging-`);
  try {
    const packageUrl = pathToFileURL(require.resolve('@sparticuz/chromium')).href;
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', DECOMPRESS_SCRIPT, packageUrl, join(packageFolder, 'bin')], {
      env: { ...process.env, TMPDIR: staging },
    });
    await extractBrotliTar(join(packageFolder, 'bin', 'al2023.tar.br'), join(staging, 'al2023'));
    await writeFile(join(staging, 'fonts.conf'), fontConfig(home));
    await rename(staging, home);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // Another process put a complete copy in place first.
    if (existsSync(home) && isCode(error, 'ENOTEMPTY', 'EEXIST')) return;
    throw new Error(`Could not decompress the packaged Chromium under ${root}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** A Brotli-compressed tar file unpacked into `folder`, by the system's tar (which stops reading at the archive's end marker, so it reads a file, not a pipe). */
async function extractBrotliTar(file: string, folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  const archive = `${folder}.tar`;
  await pipeline(createReadStream(file), createBrotliDecompress(), createWriteStream(archive));
  await promisify(execFile)('tar', ['-x', '-f', archive, '-C', folder]);
  await rm(archive);
}

function fontConfig(home: string): string {
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    '<fontconfig>',
    `  <dir>${join(home, 'fonts')}</dir>`,
    `  <cachedir>${join(home, 'fonts-cache')}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
}

function isCode(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && codes.includes((error as NodeJS.ErrnoException).code ?? '');
}
