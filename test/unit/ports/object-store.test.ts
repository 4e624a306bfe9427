import { afterAll } from 'vitest';
import { LocalFolderStore } from '../../../shared/ports/local-folder-store.js';
import { MemoryStore } from '../../../shared/ports/memory-store.js';
import { describeObjectStoreContract } from '../../support/object-store-contract.js';
import { createTempFolder, type TempFolder } from '../../support/temp-folder.js';

// The S3 adapter runs the same contract against fauxqs in test/integration/s3-store.test.ts.

const folders: TempFolder[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => folder.remove()));
});

describeObjectStoreContract('MemoryStore', async () => new MemoryStore());

describeObjectStoreContract('LocalFolderStore', async () => {
  const folder = await createTempFolder();
  folders.push(folder);
  return new LocalFolderStore(folder.path);
});
