/** What the tests use of @20minutes/s3rver (a maintained fork of s3rver, same API; it ships no types). */
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    /** Where the buckets' objects are kept. */
    directory?: string;
    resetOnClose?: boolean;
    configureBuckets?: ReadonlyArray<{ name: string; configs: ReadonlyArray<string | Buffer> }>;
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
