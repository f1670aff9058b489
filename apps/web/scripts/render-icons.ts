/**
 * `npm run icons -w @tipcard/web`: the installed app's PNG icons (public/icons/), rendered from public/favicon.svg with
 * sharp (the API's image library). Committed, so a build needs no renderer; run again when the favicon changes.
 * The maskable icon keeps the mark inside the safe zone (the middle 80 %) on a full square of the theme colour, as
 * launchers crop it to a circle or a rounded square.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import sharp from 'sharp';

const THEME = '#0b2559';
const root = new URL('../public/', import.meta.url);
const svg = readFileSync(new URL('favicon.svg', root));
mkdirSync(new URL('icons/', root), { recursive: true });

for (const size of [192, 512]) {
  await sharp(svg, { density: (72 * size) / 32 })
    .resize(size, size)
    .png()
    .toFile(new URL(`icons/icon-${size}.png`, root).pathname);
}
// The mark alone (its 14-unit square of the 32-unit favicon, without the rounded background) at 55 % of the side: its
// corners stay inside the safe zone's circle (diameter 80 %).
const mark = Buffer.from(
  svg
    .toString()
    .replace(/<rect[^>]*\/>/, '')
    .replace('viewBox="0 0 32 32"', 'viewBox="8 8 16 16"'),
);
const inner = Math.round(512 * 0.55);
const markPng = await sharp(mark, { density: (72 * inner) / 16 })
  .resize(inner, inner)
  .png()
  .toBuffer();
await sharp({ create: { width: 512, height: 512, channels: 4, background: THEME } })
  .composite([{ input: markPng, gravity: 'centre' }])
  .png()
  .toFile(new URL('icons/icon-maskable-512.png', root).pathname);
