import { http, HttpResponse } from 'msw';
import type { AutomationOutcomeWeek } from '@contract/outcomes';
import type { AutomationCountsResponse, AutomationPreviewResponse, AutomationSettingsResponse, ClientAutomatedPushesResponse } from '@contract/automation';

/** A stand-in for the automated-messages calls: keeps settings per type and records every call. */
export function fakeAutomationServer(
  options: {
    preview?: AutomationPreviewResponse;
    counts?: AutomationCountsResponse;
    outcomes?: AutomationOutcomeWeek[];
    client?: ClientAutomatedPushesResponse;
    refuseSettings?: { message: string; errors?: { path: string; message: string }[] };
  } = {},
) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  let global = { quiet_start: '21:00', quiet_end: '08:00', daily_cap: 1 };
  const settings = new Map<number, AutomationSettingsResponse['settings']>();
  let token: string | null = null;
  let client = options.client ?? { opted_out: false, pushes: [] };
  const of = (typeId: number): AutomationSettingsResponse => ({
    message_type: typeId,
    settings: settings.get(typeId) ?? {
      active: true,
      delay_minutes: 60,
      send_time: '09:00',
      weekday: 1,
      active_days: 30,
      absence_days: 14,
      milestones: [10, 50, 100],
      goal: 'any',
      goal_window_days: 7,
      holdout_percent: 0,
    },
    global,
    time_zone: 'Europe/London',
    next_run_at: typeId === 4 ? '2026-11-23T08:30:00.000Z' : null,
    staff_device_token: token,
  });
  const record = async (request: Request, path: string) => {
    const body = request.method === 'GET' ? undefined : await request.json();
    calls.push({ method: request.method, path, body });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the fake reads the fields each call sends
    return body as Record<string, any>;
  };
  const handlers = [
    http.get('*/api/admin/v1/automated-messages/:typeId/settings', async ({ request, params }) => {
      await record(request, `settings/${params.typeId}`);
      return HttpResponse.json(of(Number(params.typeId)));
    }),
    http.put('*/api/admin/v1/automated-messages/:typeId/settings', async ({ request, params }) => {
      const body = await record(request, `settings/${params.typeId}`);
      if (options.refuseSettings) return HttpResponse.json(options.refuseSettings, { status: 400 });
      const typeId = Number(params.typeId);
      settings.set(typeId, { ...of(typeId).settings, ...body.settings });
      global = { ...global, ...body.global };
      return HttpResponse.json(of(typeId));
    }),
    http.get('*/api/admin/v1/automated-messages/:typeId/preview', async ({ request, params }) => {
      await record(request, `preview/${params.typeId}`);
      return HttpResponse.json(options.preview ?? { from: '2026-11-22T12:00:00.000Z', to: '2026-11-23T12:00:00.000Z', count: 0, sample: [], blocked: null });
    }),
    http.get('*/api/admin/v1/automation/outcomes', () => HttpResponse.json(options.outcomes ?? [])),
    http.get('*/api/admin/v1/automated-messages/:typeId/counts', async ({ request, params }) => {
      await record(request, `counts/${params.typeId}`);
      const zero = { sent: 0, failed: 0, skipped: {} };
      return HttpResponse.json(options.counts ?? { since: '2026-10-23T12:00:00.000Z', templates: [], without_template: zero, total: zero, pending: 0 });
    }),
    http.post('*/api/admin/v1/automated-messages/:typeId/test', async ({ request, params }) => {
      await record(request, `test/${params.typeId}`);
      return HttpResponse.json({ status: 'sent', title: 'High five, admin!', message: 'Nice class.', error: null });
    }),
    http.put('*/api/admin/v1/automated-messages/device-token', async ({ request }) => {
      const body = await record(request, 'device-token');
      token = body.device_token;
      return HttpResponse.json({ staff_device_token: token });
    }),
    http.get('*/api/admin/v1/clients/:id/automated-messages', async ({ request, params }) => {
      await record(request, `client/${params.id}`);
      return HttpResponse.json(client);
    }),
    http.put('*/api/admin/v1/clients/:id/automated-messages', async ({ request, params }) => {
      const body = await record(request, `client/${params.id}`);
      client = { ...client, opted_out: body.opted_out };
      return HttpResponse.json(client);
    }),
  ];
  return { handlers, calls };
}
