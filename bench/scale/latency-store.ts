import type { ObjectStore } from '../../shared/ports/object-store.js';

/** S3 lists a thousand keys a page. */
const PAGE_SIZE = 1000;

/**
 * An ObjectStore that waits `latencyMs` before every request, as S3 answers a
 * Lambda in its region, and counts the requests: the deployed reducer's cost
 * without AWS. A listing pays once a page of a thousand keys.
 */
export class LatencyStore implements ObjectStore {
  requests = 0;

  constructor(
    private readonly inner: ObjectStore,
    private readonly latencyMs: number,
  ) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    await this.wait();
    return this.inner.get(key);
  }

  async put(key: string, body: Uint8Array | string, options?: { ifNoneMatch?: boolean }): Promise<{ written: boolean }> {
    await this.wait();
    return this.inner.put(key, body, options);
  }

  async *list(prefix: string): AsyncIterable<string> {
    await this.wait();
    let onPage = 0;
    for await (const key of this.inner.list(prefix)) {
      if (onPage === PAGE_SIZE) {
        await this.wait();
        onPage = 0;
      }
      onPage++;
      yield key;
    }
  }

  async download(key: string, path: string): Promise<boolean> {
    await this.wait();
    return this.inner.download(key, path);
  }

  async upload(key: string, path: string): Promise<{ etag: string }> {
    await this.wait();
    return this.inner.upload(key, path);
  }

  async delete(key: string): Promise<void> {
    await this.wait();
    return this.inner.delete(key);
  }

  private wait(): Promise<void> {
    this.requests++;
    return new Promise((resolve) => setTimeout(resolve, this.latencyMs));
  }
}
