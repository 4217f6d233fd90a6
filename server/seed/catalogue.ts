export const videoCategoryNames = ['Warm-up', 'HIIT', 'Yoga', 'Pilates', 'Strength', 'Barre', 'Cycling', 'Stretch & Recovery', 'Boxing', 'Core'];

const INSTRUCTORS = [
  'Maya Lopez',
  'Jordan Kim',
  'Sam Okafor',
  'Priya Patel',
  'Chris Nakamura',
  'Alex Rivera',
  'Tess Fischer',
  'Dre Walker',
  'Lena Novak',
  'Marcus Hill',
  'Ivy Chen',
  null,
];
const ADJECTIVES = ['Express', 'Total Body', 'Power', 'Gentle', 'Sunrise', 'Evening', 'Beginner', 'Advanced', 'Low-Impact', 'Sweaty', 'Mindful', 'Quick'];
const FORMATS = ['Flow', 'Burn', 'Session', 'Circuit', 'Class', 'Blast', 'Reset', 'Builder', 'Challenge', 'Basics'];
export const COLORS = ['#e4572e', '#17bebb', '#4f5d75', '#76b041', '#7b2cbf', '#f4a259', '#2e86ab', '#c1292e', '#3d348b', '#ff6f59'];

export interface DemoVideo {
  vimeo_video_id: string;
  title: string;
  thumbnail_url: string;
  duration: number;
  enabled: boolean;
  access_level_id: number;
  category: string;
  instructor: string | null;
}

/**
 * The demo thumbnail as SVG: works on a machine with no network. Served by the server's
 * /demo/thumbnail.svg (routes/demoAssets.ts) rather than stored inline, so that a library of
 * 10,000 demo videos answers ~1.5 MB, not the ~9 MB of inline data URIs.
 */
export function thumbnailSvg(title: string, category: string, color: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="169" viewBox="0 0 300 169">` +
    `<rect width="300" height="169" fill="${color}"/><circle cx="150" cy="72" r="26" fill="rgba(255,255,255,.85)"/>` +
    `<path d="M142 58v28l24-14z" fill="${color}"/>` +
    `<text x="150" y="130" font-family="Arial,sans-serif" font-size="16" font-weight="700" fill="#fff" text-anchor="middle">${esc(category)}</text>` +
    `<text x="150" y="152" font-family="Arial,sans-serif" font-size="12" fill="#fff" text-anchor="middle">${esc(title.slice(0, 36))}</text></svg>`
  );
}

/** The URL of a demo thumbnail on this server; `prefix` is SERVER_PREFIX. */
export function thumbnail(title: string, category: string, color: string, prefix = ''): string {
  const query = new URLSearchParams({ t: title.slice(0, 36), c: category, k: color.replace('#', '') });
  return `${prefix}/demo/thumbnail.svg?${query}`;
}

export function demoVideos(count: number, prefix = ''): DemoVideo[] {
  return Array.from({ length: count }, (_, i) => {
    const categoryIndex = i % videoCategoryNames.length;
    const category = videoCategoryNames[categoryIndex]!;
    const title = `${ADJECTIVES[(i * 7) % ADJECTIVES.length]} ${category} ${FORMATS[(i * 3) % FORMATS.length]}${i >= 120 ? ` ${Math.floor(i / 120) + 1}` : ''}`;
    // A few clips are under a minute so the '< 1 MINUTE(S)' rule shows in the demo.
    const duration = i % 23 === 0 ? 30 + (i % 29) : 300 + ((i * 397) % 3300);
    return {
      vimeo_video_id: String(760000000 + i * 13),
      title,
      thumbnail_url: thumbnail(title, category, COLORS[categoryIndex]!, prefix),
      duration,
      enabled: i % 11 !== 0,
      access_level_id: 1 + ((i * 5) % 3),
      category,
      instructor: INSTRUCTORS[(i * 5) % INSTRUCTORS.length]!,
    };
  });
}
