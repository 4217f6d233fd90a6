import type { ConsoleArea } from '../layout/area';
import { twoStepData } from './twoStepData';

/** Two-step sign-in (user menu) and re-authentication before sensitive actions; no page of its own. */
// Annotated, not inferred: the area's views use the dataProvider whose type is drawn from this list.
export const twoStepArea: ConsoleArea<readonly [typeof twoStepData]> = {
  name: 'two-step',
  data: [twoStepData] as const,
};
