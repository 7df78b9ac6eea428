import { PassThrough } from 'node:stream';
import { createElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { trimReactEncoderPadding } from '~/server/react-stream-padding.server';

/** Renders `texts` as separate text nodes, streamed like entry.server.tsx does, optionally through the fix. */
function render(texts: string[], fix: boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out = new PassThrough();
    const parts: Buffer[] = [];
    out.on('data', (part: Buffer) => parts.push(part));
    out.on('end', () => resolve(Buffer.concat(parts)));
    const { pipe } = renderToPipeableStream(
      createElement('div', null, ...texts.map((text, index) => createElement('span', { key: index }, text))),
      {
        onAllReady() {
          if (fix) {
            const trimmed = trimReactEncoderPadding();
            trimmed.pipe(out);
            pipe(trimmed);
          } else {
            pipe(out);
          }
        },
        onError: reject,
      },
    );
  });
}

describe('React 18 stream encoder padding (issue 10 item 11)', () => {
  // Short texts (React copies them into its 2048-byte view); '€' (3 bytes in UTF-8) lands near byte 4096 for some shifts.
  const layout = (shift: number) => ['x'.repeat(shift), ...Array(193).fill('Filament'), '0,3 €', ...Array(20).fill('Strom')];
  const expected = (texts: string[]) => `<div>${texts.map((text) => `<span>${text}</span>`).join('')}</div>`;

  it('react-dom/server alone emits NUL bytes where "€" straddles its 2048-byte buffer', async () => {
    const padded: number[] = [];
    for (let shift = 1; shift <= 40; shift++) if ((await render(layout(shift), false)).includes(0)) padded.push(shift);
    expect(padded.length).toBeGreaterThan(0);
  });

  it('trimReactEncoderPadding removes exactly the padding, whatever the layout', async () => {
    for (let shift = 1; shift <= 40; shift++) {
      const html = await render(layout(shift), true);
      expect(html.includes(0)).toBe(false);
      expect(html.toString('utf8')).toBe(expected(layout(shift)));
    }
  });
});
