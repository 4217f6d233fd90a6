import { createHash } from 'node:crypto';

const palette = ['#e4572e', '#17bebb', '#4f5d75', '#76b041', '#7b2cbf', '#f4a259', '#2e86ab', '#c1292e'];

/** An initials avatar as an SVG data URL, so staff without a picture need no outside service. */
export function generatedAvatar(email: string, nickname: string): string {
  const digest = createHash('sha256').update(email.trim().toLowerCase()).digest();
  const color = palette[digest[0] % palette.length];
  const initials =
    nickname
      .split(/[\s._@-]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((word) => word[0]!.toUpperCase())
      .join('') || '?';
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" fill="${color}"/>` +
    `<text x="32" y="41" font-family="Arial,Helvetica,sans-serif" font-size="26" font-weight="700" fill="#fff" text-anchor="middle">${initials}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

export function nicknameFromEmail(email: string): string {
  return email.split('@')[0] ?? email;
}
