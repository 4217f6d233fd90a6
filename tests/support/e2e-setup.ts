import { afterEach, beforeEach } from 'vitest';
import { testContexts } from './e2e';

beforeEach(() => testContexts.start());
afterEach(() => testContexts.closeAll());
