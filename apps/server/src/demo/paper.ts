/** The paper of a typeset demo leaf: its colour, mottling, specks and fibres (drawn with a seeded random). */

/** Warm beige paper. */
const PAPER = '#e9dcc0';
export const INK = '#1a1410';

/** Rounds to one decimal, which is all an SVG coordinate here needs. */
export const r1 = (n: number) => Math.round(n * 10) / 10;

/** Ink specks and paper fibres: a few hundred small low-opacity marks, seeded. */
export function noiseSvg(width: number, height: number, random: () => number): string {
  const scale = Math.min(width / 2000, height / 1400);
  const parts: string[] = [];
  for (let i = 0; i < 220; i++) {
    const rad = (0.5 + random() * random() * 2.2) * scale;
    parts.push(
      `<circle cx="${r1(random() * width)}" cy="${r1(random() * height)}" r="${r1(rad)}" fill-opacity="${(0.12 + random() * 0.4).toFixed(2)}"/>`,
    );
  }
  const specks = `<g fill="${INK}">${parts.join('')}</g>`;
  const grain: string[] = [];
  for (let i = 0; i < 200; i++) {
    grain.push(
      `<ellipse cx="${r1(random() * width)}" cy="${r1(random() * height)}" rx="${r1((1 + random() * 4) * scale)}" ` +
        `ry="${r1((0.6 + random() * 1.5) * scale)}" fill-opacity="${(0.08 + random() * 0.14).toFixed(2)}"/>`,
    );
  }
  const fibres: string[] = [];
  for (let i = 0; i < 60; i++) {
    const x = random() * width;
    const y = random() * height;
    const angle = random() * Math.PI;
    const len = (6 + random() * 22) * scale;
    fibres.push(`M${r1(x)} ${r1(y)}l${r1(Math.cos(angle) * len)} ${r1(Math.sin(angle) * len)}`);
  }
  return (
    specks +
    `<g fill="#8a6d45">${grain.join('')}</g>` +
    `<path d="${fibres.join('')}" stroke="#7d6440" stroke-width="${r1(0.8 * scale)}" stroke-opacity="0.18" fill="none"/>`
  );
}

/**
 * Mottled paper: the paper colour with large faint patches a shade darker or lighter, as aged
 * paper takes up tone unevenly. Flat fills keep it cheap to draw and to compress.
 */
export function paperSvg(width: number, height: number, random: () => number): string {
  const dark: string[] = [];
  const light: string[] = [];
  for (let i = 0; i < 90; i++) {
    const rx = (0.02 + random() * 0.1) * width;
    const ry = rx * (0.4 + random() * 0.8);
    const blob =
      `<ellipse cx="${r1(random() * width)}" cy="${r1(random() * height)}" rx="${r1(rx)}" ry="${r1(ry)}" ` +
      `fill-opacity="${(0.012 + random() * 0.022).toFixed(3)}"/>`;
    (random() < 0.6 ? dark : light).push(blob);
  }
  return (
    `<rect width="${width}" height="${height}" fill="${PAPER}"/>` +
    `<g fill="#a88a5a">${dark.join('')}</g><g fill="#fbf4e4">${light.join('')}</g>`
  );
}
