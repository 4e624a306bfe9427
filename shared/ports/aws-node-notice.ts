/**
 * The AWS SDK's documented switch for its notice, printed once a process on
 * Node.js 20, that its releases after January 2027 need Node.js 22. assay
 * supports Node.js 20.19 and up (its Lambda functions run on Node.js 24), so
 * on every command the notice is noise; other warnings are left alone. A
 * value the user set, `false` included, wins. The SDK reads the switch as it
 * builds a client, so every adapter calls this before building one.
 */
export function quietNodeVersionNotice(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}
