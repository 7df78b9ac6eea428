// fontkit ships no types; pdfkit accepts its font objects as they are (only `layout` is checked).
declare module 'fontkit' {
  export type Font = { layout: (...args: unknown[]) => unknown };
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
