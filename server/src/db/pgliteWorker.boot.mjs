// The worker thread's entry point. Node 20 does not apply the parent's `--import tsx` to a worker,
// so tsx's API loads the TypeScript worker itself (pgliteWorker.ts).
import { tsImport } from 'tsx/esm/api';

await tsImport('./pgliteWorker.ts', import.meta.url);
