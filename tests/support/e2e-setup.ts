import { afterEach, beforeEach } from 'vitest';
import { testContexts } from './e2e';

beforeEach(() => testContexts.start());
afterEach(async ({ task }) => {
  // A failed test's tabs, as text in the log: a CI run is read from its log, where a screenshot is not.
  if (task.result?.state === 'fail') {
    for (const line of await testContexts.describeOpenPages()) console.log(line);
  }
  await testContexts.closeAll();
});
