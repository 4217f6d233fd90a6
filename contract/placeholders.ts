/**
 * Placeholders staff may write into push-message templates. This lives in contract/ because the
 * console's preview and the server's automated sender (docs/automation.md) must fill a template identically.
 */
export const MESSAGE_PLACEHOLDERS = ['first_name', 'last_name', 'class_name', 'days_absent', 'class_count'] as const;
export type MessagePlaceholder = (typeof MESSAGE_PLACEHOLDERS)[number];
export type PlaceholderValues = Partial<Record<MessagePlaceholder, string | number | null | undefined>>;

/** What a client without that value reads, so a sentence still makes sense ("Hey there, ..."). */
export const PLACEHOLDER_FALLBACKS: Record<MessagePlaceholder, string> = {
  first_name: 'there',
  last_name: '',
  class_name: 'class',
  days_absent: 'a few',
  class_count: 'another',
};

// Staff type these by hand: tolerate `{ First_Name }` as well as `{first_name}`.
const PLACEHOLDER = /\{\s*([A-Za-z_]+)\s*\}/g;

const isKnown = (name: string): name is MessagePlaceholder => (MESSAGE_PLACEHOLDERS as readonly string[]).includes(name);

/** The template with every known placeholder replaced; unknown ones stay visible as typed. */
export function fillPlaceholders(template: string, values: PlaceholderValues): string {
  return template.replace(PLACEHOLDER, (whole, raw: string) => {
    const name = raw.toLowerCase();
    if (!isKnown(name)) return whole;
    const value = values[name];
    const text = value === null || value === undefined ? '' : String(value).trim();
    return text === '' ? PLACEHOLDER_FALLBACKS[name] : text;
  });
}

/** Placeholders in the template that nothing will fill (typos such as `{frist_name}`), each once. */
export function unknownPlaceholders(template: string): string[] {
  const found = [...template.matchAll(PLACEHOLDER)].filter((match) => !isKnown(match[1]!.toLowerCase())).map((match) => match[0]);
  return [...new Set(found)];
}

export function hasPlaceholders(template: string): boolean {
  return [...template.matchAll(PLACEHOLDER)].some((match) => isKnown(match[1]!.toLowerCase()));
}
