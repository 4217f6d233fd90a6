// The templates an automated push is made from: which are enabled, which one a client got last, and the values
// that fill their placeholders.
import type { AutomationTypeSettings } from '@contract/automation';
import type { PlaceholderValues } from '@contract/placeholders';

export { enabledTemplates, enabledTemplatesOf, previousTemplate, type Template } from './templateQueries';

export function placeholderValues(client: { first_name: string | null; last_name: string | null }, context: Record<string, unknown>): PlaceholderValues {
  const value = (key: string) => {
    const raw = context[key];
    return typeof raw === 'string' || typeof raw === 'number' ? raw : null;
  };
  return {
    first_name: client.first_name,
    last_name: client.last_name,
    class_name: value('class_name'),
    class_count: value('class_count'),
    days_absent: value('days_absent'),
  };
}

export const isMilestone = (settings: AutomationTypeSettings, context: Record<string, unknown>) => settings.milestones.includes(Number(context.class_count));
