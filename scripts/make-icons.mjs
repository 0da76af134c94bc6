// Draws the PWA icons (public/icons/*.png) from one SVG with Debian's Chromium
// (playwright-core, no browser download). Run: node scripts/make-icons.mjs
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public/icons');

/** A white delivery document with a QR corner on the brand blue; `pad` shrinks it into the maskable safe zone. */
function svg(size, { maskable }) {
  const s = maskable ? 0.62 : 0.78;
  const w = 100 * s;
  const x = (100 - w * 0.78) / 2;
  const y = (100 - w) / 2;
  const dw = w * 0.78;
  const radius = maskable ? 0 : 22;
  const qr = [
    [0, 0],
    [1, 0],
    [2, 0],
    [0, 1],
    [2, 1],
    [0, 2],
    [1, 2],
    [2, 2],
    [4, 0],
    [4, 2],
    [3, 3],
    [4, 4],
    [2, 4],
    [0, 4],
    [3, 1],
  ];
  const q = dw * 0.075;
  const qx = x + dw * 0.5;
  const qy = y + w * 0.56;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">
  <rect width="100" height="100" rx="${radius}" fill="#0b5394"/>
  <path d="M${x} ${y} h${dw * 0.72} l${dw * 0.28} ${dw * 0.28} v${w - dw * 0.28} h${-dw} z" fill="#fff"/>
  <path d="M${x + dw * 0.72} ${y} v${dw * 0.28} h${dw * 0.28} z" fill="#9cc2e5"/>
  ${[0.2, 0.32, 0.44].map((f, i) => `<rect x="${x + dw * 0.12}" y="${y + w * f}" width="${dw * (i === 0 ? 0.5 : 0.76)}" height="${w * 0.05}" rx="1" fill="#0b5394"/>`).join('')}
  ${qr.map(([cx, cy]) => `<rect x="${qx + cx * q}" y="${qy + cy * q}" width="${q}" height="${q}" fill="#1a1f24"/>`).join('')}
  <rect x="${x + dw * 0.12}" y="${y + w * 0.62}" width="${dw * 0.28}" height="${w * 0.05}" rx="1" fill="#f59e0b"/>
</svg>`;
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage();
for (const [name, size, maskable] of [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['maskable-512.png', 512, true],
  ['apple-touch-icon.png', 180, true],
]) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg(size, { maskable })}</body></html>`);
  const png = await page.locator('svg').screenshot({ omitBackground: true });
  writeFileSync(path.join(out, name), png);
  if (name === 'icon-512.png') writeFileSync(path.join(out, 'icon.svg'), svg(512, { maskable: false }));
}
await browser.close();
console.log(`iconos en ${out}`);
