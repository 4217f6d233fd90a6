import { dashboardArea } from './dashboard';
import { messagingArea } from './messaging';
import { videosArea } from './videos';
import { clientsArea } from './clients';
import { auditArea } from './audit';
import { staffArea } from './staff';
import { sessionsArea } from './sessions';
import { segmentsArea } from './segments';
import { broadcastsArea } from './broadcasts';
import { dataRequestsArea } from './dataRequests';
import { revenueArea } from './revenue';
import { twoStepArea } from './twoStep';

/**
 * The console's areas, in sidebar order (docs/adding-an-area.md). App.tsx alone reads this list: it
 * registers their routes and resources and hands the list to the dataProvider (their data modules)
 * and the sidebar (their menu entries). Anything else importing it would close an import circle
 * through every area (tests/server/import-rules.test.ts).
 */
export const consoleAreas = () =>
  [
    dashboardArea,
    revenueArea,
    messagingArea,
    videosArea,
    clientsArea,
    auditArea,
    staffArea,
    sessionsArea,
    segmentsArea,
    broadcastsArea,
    dataRequestsArea,
    twoStepArea,
  ] as const;
