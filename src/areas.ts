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
 * The console's areas, in sidebar order (docs/adding-an-area.md): App.tsx registers their routes
 * and resources, the dataProvider their data modules, the sidebar their menu entries.
 * A function, not a constant, so that an area's modules may import the dataProvider without an
 * import cycle reading an area before it is defined.
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
