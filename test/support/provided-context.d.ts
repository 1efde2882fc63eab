// Values that globalSetup files provide to tests, so `inject('mediaBaseUrl')` is typed.
declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of test/support/media-server.ts, e.g. `http://127.0.0.1:41234` (no trailing slash). */
    mediaBaseUrl: string;
    /** Base URL of a sandbox started by test/support/sandbox.global.ts (proxy tests). */
    sandboxUrl: string;
    /** Base URL of test/support/webhook-receiver.ts (proxy webhook tests). */
    webhookReceiverUrl: string;
  }
}

// Marks this file as a module so the block above augments 'vitest' instead of replacing it.
export {};
