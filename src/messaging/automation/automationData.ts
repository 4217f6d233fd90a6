import type {
  AutomationCountsResponse,
  AutomationPreviewResponse,
  AutomationSettingsResponse,
  ClientAutomatedPushesResponse,
  SendTestResponse,
  UpdateAutomationSettingsRequest,
} from '@contract/automation';
import type { AutomationOutcomeWeek } from '@contract/outcomes';
import type { DataModule } from '../../providers/dataModule';
import type { HttpClient } from '../../providers/http';
import { loadChunk } from '../../common/chunks';

// Answers are checked against the contract's zod schemas, loaded with the first call so the schema
// library stays out of the console's first download.
const schemas = () => loadChunk(() => import('@contract/automation'));

const base = '/api/admin/v1/automated-messages';
const send = (method: 'PUT' | 'POST', body: unknown) => ({ method, body: JSON.stringify(body) });

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type AutomationMethods = {
  getAutomationSettings: (typeId: number) => Promise<AutomationSettingsResponse>;
  updateAutomationSettings: (typeId: number, body: UpdateAutomationSettingsRequest) => Promise<AutomationSettingsResponse>;
  getAutomationPreview: (typeId: number) => Promise<AutomationPreviewResponse>;
  getAutomationCounts: (typeId: number) => Promise<AutomationCountsResponse>;
  sendAutomationTest: (typeId: number, pushMessageId?: number) => Promise<SendTestResponse>;
  setStaffDeviceToken: (token: string | null) => Promise<{ staff_device_token: string | null }>;
  getClientAutomatedMessages: (clientId: number) => Promise<ClientAutomatedPushesResponse>;
  setClientAutomatedOptOut: (clientId: number, optedOut: boolean) => Promise<ClientAutomatedPushesResponse>;
  /** Did it work: one type's results by week, newest first. */
  getAutomationOutcomes: (typeId: number) => Promise<AutomationOutcomeWeek[]>;
};

/** Automated messages (docs/automation.md): extension calls under /api/admin/v1/automated-messages. */
export const automationData = (http: HttpClient) =>
  ({
    methods: {
      getAutomationSettings: async (typeId) => (await schemas()).AutomationSettingsResponse.parse((await http(`${base}/${typeId}/settings`)).json),
      updateAutomationSettings: async (typeId, body) =>
        (await schemas()).AutomationSettingsResponse.parse((await http(`${base}/${typeId}/settings`, send('PUT', body))).json),
      getAutomationPreview: async (typeId) => (await schemas()).AutomationPreviewResponse.parse((await http(`${base}/${typeId}/preview`)).json),
      getAutomationCounts: async (typeId) => (await schemas()).AutomationCountsResponse.parse((await http(`${base}/${typeId}/counts`)).json),
      sendAutomationTest: async (typeId, pushMessageId) =>
        (await schemas()).SendTestResponse.parse(
          (await http(`${base}/${typeId}/test`, send('POST', pushMessageId === undefined ? {} : { push_message_id: pushMessageId }))).json,
        ),
      setStaffDeviceToken: async (token) =>
        (await schemas()).DeviceTokenResponse.parse((await http(`${base}/device-token`, send('PUT', { device_token: token }))).json),
      getClientAutomatedMessages: async (clientId) =>
        (await schemas()).ClientAutomatedPushesResponse.parse((await http(`/api/admin/v1/clients/${clientId}/automated-messages`)).json),
      setClientAutomatedOptOut: async (clientId, optedOut) =>
        (await schemas()).ClientAutomatedPushesResponse.parse(
          (await http(`/api/admin/v1/clients/${clientId}/automated-messages`, send('PUT', { opted_out: optedOut }))).json,
        ),
      getAutomationOutcomes: async (typeId) =>
        (await http(`/api/admin/v1/automation/outcomes?type=${encodeURIComponent(typeId)}`)).json as AutomationOutcomeWeek[],
    },
  }) satisfies DataModule<AutomationMethods>;
