/**
 * The part of html-to-text 9.0.5 (no bundled types) that emails/index.ts uses: `compile(options)` returns a
 * converter from HTML to plain text that can be called many times with the options compiled once.
 */
declare module 'html-to-text' {
  export function compile(options?: Record<string, unknown>): (html: string, metadata?: unknown) => string;
}
